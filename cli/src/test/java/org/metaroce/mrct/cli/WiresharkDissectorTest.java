package org.metaroce.mrct.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metaroce.mrct.harness.result.EvidenceComment;
import org.metaroce.mrct.testing.ExternalTool;
import org.metaroce.mrct.testing.Fixtures;

/**
 * {@code wireshark/metaroce.lua} in tshark: every field the dissector shows equals what {@code mrct decode} says of the
 * same frame (BTH, PLETH, RETH, AETH, SACKETH, AtomicETH, ..., payload length, ICRC value and validity), on the
 * evidence of a small run (TVer 1 frames of every kind, CNPs, unknown TVer, TVer 0 legacy frames, control records,
 * memory contents), on crafted frames (IPv6, VLAN, bad ICRC) and on real captures (the soft-RoCE fixtures and
 * {@code ../shared/captures}); TVer 0 frames stay with Wireshark's InfiniBand dissector, whose PSN agrees too.
 * Skipped, with the reason, when tshark is absent or runs no Lua script here.
 */
class WiresharkDissectorTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** The fields read from tshark, in this order. */
    private static final List<String> FIELDS = List.of("frame.number", "udp.srcport", "ip.frag_offset",
        "ip.fragment.count", "metaroce.bth.opcode", "metaroce.bth.se", "metaroce.bth.m", "metaroce.bth.padcnt",
        "metaroce.bth.tver",
        "metaroce.bth.pkey", "metaroce.bth.fecn", "metaroce.bth.becn", "metaroce.bth.dqpn", "metaroce.bth.ackreq",
        "metaroce.bth.psn", "metaroce.pleth.msn", "metaroce.pleth.first", "metaroce.pleth.last",
        "metaroce.pleth.offset", "metaroce.pleth.rsn", "metaroce.reth.va", "metaroce.reth.rkey",
        "metaroce.reth.dmalen", "metaroce.aeth.syndrome", "metaroce.aeth.msn", "metaroce.sacketh.base",
        "metaroce.sacketh.bitmap", "metaroce.atomiceth.va", "metaroce.atomiceth.rkey", "metaroce.atomiceth.swap",
        "metaroce.atomiceth.compare", "metaroce.atomicacketh.orig", "metaroce.immdt", "metaroce.ieth.rkey",
        "metaroce.deth.qkey", "metaroce.deth.srcqp", "metaroce.payload_len", "metaroce.icrc.value",
        "metaroce.icrc.valid", "metaroce_icrc.valid", "infiniband.bth.psn", "mrct.case", "mrct.control.op",
        "_ws.lua.error");
    /** Extension headers and their fields as mrct decode names them. */
    private static final Map<String, List<String>> HEADERS = new LinkedHashMap<>();

    static {
        HEADERS.put("pleth", List.of("msn", "first", "last", "offset", "rsn"));
        HEADERS.put("reth", List.of("va", "rkey", "dmalen"));
        HEADERS.put("aeth", List.of("syndrome", "msn"));
        HEADERS.put("sacketh", List.of("base", "bitmap"));
        HEADERS.put("atomiceth", List.of("va", "rkey", "swap", "compare"));
        HEADERS.put("atomicacketh", List.of("orig"));
        HEADERS.put("ieth", List.of("rkey"));
        HEADERS.put("deth", List.of("qkey", "srcqp"));
    }

    @TempDir
    static Path dir;

    private static Path script;

    @BeforeAll
    static void tsharkRunsLua() throws IOException {
        ExternalTool.assumeWorks("the dissector is checked in tshark", "tshark", "--version");
        script = Fixtures.root().resolve("wireshark/metaroce.lua");
        // A Lua script that only prints: tshark may be built without Lua, or refuse Lua (e.g. as root, where a
        // site's init.lua can disable it). Then there is nothing to check here, which is said.
        final Path probe = dir.resolve("probe.lua");
        Files.writeString(probe, "print('mrct-lua-probe')\n");
        final Path capture = Fixtures.softRoceCaptures().get(0);
        final ExternalTool.Result result = ExternalTool.run(120, "tshark", "-X", "lua_script:" + probe, "-r",
            capture.toString(), "-c", "1", "-T", "fields", "-e", "frame.number");
        Assumptions.assumeTrue(result.stdout().contains("mrct-lua-probe"), () -> "skipped: tshark runs no Lua "
            + "script here (built without Lua, or Lua disabled for user " + System.getProperty("user.name")
            + "): " + result.stderr().strip());
    }

    @Test
    void everyFieldOfASuiteRunsEvidenceEqualsMrctDecode() throws IOException {
        final Path reports = dir.resolve("run");
        final Mrct.Run run = Mrct.run("run", "--quiet", "--generated", "0", "-s", "WIRE", "-s", "HDR", "-s", "LEG-001",
            "-s", "ACK-0", "-s", "CC-004", "-s", "ATM-00", "-s", "PLC-007", "--report-dir", reports.toString(),
            "--format", "EVIDENCE");
        assertThat(run.status()).as(run.out() + run.err()).isZero();
        final Tally tally = compare(reports.resolve("evidence.pcapng"));

        assertThat(tally.metaroce).as("TVer 1 frames shown by metaroce.lua").isGreaterThan(200);
        assertThat(tally.headers.keySet()).as("extension headers compared").contains("pleth", "reth", "aeth",
            "sacketh", "atomiceth", "atomicacketh", "ieth");
        assertThat(tally.cnp).as("CNPs").isPositive();
        assertThat(tally.unknownTver).as("frames of an unknown TVer").isPositive();
        assertThat(tally.infiniband).as("TVer 0 frames left to Wireshark's InfiniBand dissector").isPositive();
        assertThat(tally.badIcrc).as("frames with a bad ICRC, shown as such").isPositive();
        assertThat(tally.control).as("control records").isGreaterThan(100);
        assertThat(tally.memory).as("memory contents").isPositive();
    }

    @Test
    void craftedFramesIpv6VlanAndABadIcrc() throws IOException {
        final Path file = Crafted.pcap(dir.resolve("crafted.pcap"), List.of(Crafted.writeOnly().build(),
            Crafted.sack().build(), Crafted.writeOnly().correctIcrc(false).build(), Crafted.notRoce()));
        final Tally tally = compare(file);
        assertThat(tally.metaroce).isEqualTo(3);
        assertThat(tally.badIcrc).isEqualTo(1);
        assertThat(tally.headers.keySet()).contains("pleth", "reth", "aeth", "sacketh");
    }

    @Test
    void theSoftRoceFixturesStayWithTheInfinibandDissectorWithTheirIcrcChecked() throws IOException {
        for (final Path capture : Fixtures.softRoceCaptures()) {
            final Tally tally = compare(capture);
            assertThat(tally.infiniband).as(capture.toString()).isPositive();
        }
    }

    @Test
    void theSharedCaptures() throws IOException {
        final String override = System.getProperty("mrct.shared.captures");
        final List<Path> captures = new ArrayList<>();
        if (override != null && !override.isBlank()) {
            try (var files = Files.list(Path.of(override))) {
                files.filter(p -> p.toString().endsWith(".pcap") || p.toString().endsWith(".pcapng")).sorted()
                    .forEach(captures::add);
            }
        } else {
            captures.addAll(Fixtures.sharedCaptures());
        }
        assertThat(captures).isNotEmpty();
        for (final Path capture : captures) {
            final Tally tally = compare(capture);
            assertThat(tally.infiniband + tally.metaroce).as(capture.toString()).isPositive();
        }
    }

    /** What {@link #compare} looked at. */
    private static final class Tally {
        int metaroce;
        int cnp;
        int unknownTver;
        int infiniband;
        int badIcrc;
        int control;
        int memory;
        int malformed;
        final Map<String, Integer> headers = new HashMap<>();
    }

    /** Runs the dissector and mrct decode over {@code capture} and compares them frame by frame. */
    private static Tally compare(final Path capture) throws IOException {
        final List<String> command = new ArrayList<>(List.of("tshark", "-X", "lua_script:" + script, "-r",
            capture.toString(), "-T", "fields", "-E", "occurrence=f", "-E", "separator=/t"));
        for (final String field : FIELDS) {
            command.add("-e");
            command.add(field);
        }
        final ExternalTool.Result shark = ExternalTool.run(600, command);
        assertThat(shark.exitCode()).as(shark.stderr()).isZero();
        assertThat(shark.stderr()).doesNotContain("Lua Error", "lua_script");
        final Map<Long, Map<String, String>> shown = new HashMap<>();
        for (final String line : shark.stdout().split("\n")) {
            if (line.isEmpty()) {
                continue;
            }
            final String[] values = line.split("\t", -1);
            final Map<String, String> row = new HashMap<>();
            for (int i = 0; i < FIELDS.size(); i++) {
                row.put(FIELDS.get(i), i < values.length ? values[i] : "");
            }
            shown.put(Long.parseLong(row.get("frame.number")), row);
        }
        final Mrct.Run decode = Mrct.run("decode", "--comments", capture.toString());
        assertThat(decode.status()).as(decode.err()).isZero();
        assertThat(shown).as("frames tshark read").hasSize(decode.lines().size());
        final Tally tally = new Tally();
        for (final String line : decode.lines()) {
            final JsonNode frame = JSON.readTree(line);
            final Map<String, String> row = shown.get(frame.path("frame").asLong());
            final String where = capture.getFileName() + " frame " + frame.path("frame").asLong();
            assertThat(row).as(where).isNotNull();
            assertThat(row.get("_ws.lua.error")).as(where + ": Lua error").isEmpty();
            compareFrame(frame, row, where, tally);
        }
        return tally;
    }

    private static void compareFrame(final JsonNode frame, final Map<String, String> row, final String where,
                                     final Tally tally) {
        final int linkType = frame.path("link_type").asInt(1);
        if (linkType == 147 || linkType == 148) {
            final Map<String, String> comment = EvidenceComment.parse(frame.path("comment").asText());
            assertThat(row.get("mrct.case")).as(where).isEqualTo(comment.get("case"));
            if (linkType == 147) {
                assertThat(row.get("mrct.control.op")).as(where).isEqualTo(comment.get("note"));
                tally.control++;
            } else {
                tally.memory++;
            }
            return;
        }
        if (!frame.path("roce").asBoolean() || !frame.path("version").asText().equals("v2")
            || frame.has("error") && !frame.has("bth")) {
            // mrct decode does not decode it as RoCEv2 (a fragment Wireshark still hands to UDP aside); a frame where
            // Wireshark completed a reassembly shows the datagram of several frames, not its own (the harness's frames
            // share IPv4 identifications across cases: WIRE-006's first fragment and WIRE-002's later one)
            if ((row.get("ip.frag_offset").isEmpty() || row.get("ip.frag_offset").equals("0"))
                && row.get("ip.fragment.count").isEmpty()) {
                assertThat(row.get("metaroce.bth.opcode")).as(where + ": not RoCEv2 for mrct decode").isEmpty();
            }
            return;
        }
        if (!row.get("udp.srcport").isEmpty() && Integer.parseInt(row.get("udp.srcport")) < 1024) {
            return; // Wireshark tries the lower port's dissector first (port 7: echo)
        }
        final JsonNode bth = frame.path("bth");
        final boolean ours = bth.path("tver").asInt() != 0 || bth.path("opcode").asInt() == 0x81;
        if (!ours) {
            assertThat(row.get("metaroce.bth.opcode")).as(where + ": TVer 0 is InfiniBand's").isEmpty();
            assertThat(row.get("infiniband.bth.psn")).as(where + ": infiniband.bth.psn")
                .isEqualTo(bth.path("psn").asText());
            assertThat(row.get("metaroce_icrc.valid")).as(where + ": ICRC validity")
                .isEqualTo(bool(frame.path("icrc").path("valid")));
            tally.infiniband++;
            return;
        }
        tally.metaroce++;
        if (bth.path("opcode").asInt() == 0x81) {
            tally.cnp++;
        }
        if (bth.path("tver").asInt() > 1) {
            tally.unknownTver++;
        }
        for (final String key : List.of("opcode", "se", "m", "padcnt", "tver", "pkey", "fecn", "becn", "dqpn",
            "ackreq", "psn")) {
            assertSame(where + ": bth." + key, bth.path(key), row.get("metaroce.bth." + key));
        }
        if (frame.has("error")) {
            // malformed for mrct decode (a stacked VLAN tag, a length that does not add up, ...): the BTH and the
            // headers it decoded must still agree; where the payload and the ICRC lie may not
            for (final String header : HEADERS.keySet()) {
                for (final String key : frame.has(header) ? HEADERS.get(header) : List.<String>of()) {
                    assertSame(where + ": " + header + "." + key, frame.path(header).path(key),
                        row.get("metaroce." + header + "." + key));
                }
            }
            tally.malformed++;
            return;
        }
        for (final Map.Entry<String, List<String>> header : HEADERS.entrySet()) {
            for (final String key : header.getValue()) {
                final String name = header.getKey() + "." + key;
                if (frame.has(header.getKey())) {
                    assertSame(where + ": " + name, frame.path(header.getKey()).path(key), row.get("metaroce." + name));
                } else {
                    assertThat(row.get("metaroce." + name)).as(where + ": no " + header.getKey()).isEmpty();
                }
            }
            if (frame.has(header.getKey())) {
                tally.headers.merge(header.getKey(), 1, Integer::sum);
            }
        }
        if (frame.has("immdt")) {
            assertSame(where + ": immdt", frame.path("immdt"), row.get("metaroce.immdt"));
        }
        assertSame(where + ": payload_len", frame.path("payload_len"), row.get("metaroce.payload_len"));
        assertThat(row.get("metaroce.icrc.value")).as(where + ": icrc.value")
            .isEqualTo(frame.path("icrc").path("value").asText());
        assertThat(row.get("metaroce.icrc.valid")).as(where + ": icrc.valid")
            .isEqualTo(bool(frame.path("icrc").path("valid")));
        if (!frame.path("icrc").path("valid").asBoolean()) {
            tally.badIcrc++;
        }
    }

    /** tshark writes booleans of -T fields as 1 and 0 (4.x) or True and False. */
    private static String bool(final JsonNode value) {
        return value.asBoolean() ? "1" : "0";
    }

    /** A JSON value of mrct decode and tshark's text of the same field denote the same number or truth. */
    private static void assertSame(final String what, final JsonNode expected, final String shown) {
        assertThat(shown).as(what + " (mrct decode: " + expected + ")").isNotNull().isNotEmpty();
        if (expected.isBoolean()) {
            assertThat(shown.equals("1") || shown.equalsIgnoreCase("true")).as(what + ": " + shown + " vs "
                + expected).isEqualTo(expected.asBoolean());
            return;
        }
        final BigInteger want = expected.isTextual() ? new BigInteger(expected.asText().replaceFirst("^0x", ""), 16)
            : expected.bigIntegerValue();
        final BigInteger got = shown.startsWith("0x") ? new BigInteger(shown.substring(2), 16) : new BigInteger(shown);
        assertThat(got).as(what + ": tshark " + shown + ", mrct decode " + expected).isEqualTo(want);
    }
}
