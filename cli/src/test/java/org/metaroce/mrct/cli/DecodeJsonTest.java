package org.metaroce.mrct.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.metaroce.mrct.testing.Fixtures;
import org.metaroce.mrct.wire.Encapsulation;
import org.metaroce.mrct.wire.FrameBuilder;
import org.metaroce.mrct.wire.Opcode;
import org.metaroce.mrct.wire.capture.CaptureReader;
import org.metaroce.mrct.wire.capture.PcapWriter;
import org.metaroce.mrct.wire.capture.PcapngWriter;

/** {@code mrct decode} JSON Lines: on the real soft-RoCE captures and on crafted frames with known field values. */
class DecodeJsonTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** RoCE frames per fixture, as counted by tshark (see fixtures/captures/soft-roce/ATTRIBUTION.md). */
    private static final Map<String, Integer> ROCE_FRAMES = Map.of("rdma_write_bw.pcap", 20, "rdma_read_bw.pcap", 20,
        "rdma_send_bw.pcap", 20, "rdma_atomic_bw.pcap", 10, "pingpong_rc.pcap", 20, "nccl_ring2_node0.pcap", 184);

    @TempDir
    Path dir;

    static Stream<Path> softRoce() {
        return Fixtures.softRoceCaptures().stream();
    }

    @ParameterizedTest
    @MethodSource("softRoce")
    void everyRecordOfARealCaptureIsOneJsonObject(final Path capture) throws IOException {
        final Mrct.Run run = Mrct.run("decode", capture.toString());
        assertThat(run.status()).as(run.err()).isZero();
        assertThat(run.err()).isEmpty();
        final List<JsonNode> frames = parse(run.lines());
        assertThat(frames).hasSize(records(capture));
        int roce = 0;
        for (int i = 0; i < frames.size(); i++) {
            final JsonNode frame = frames.get(i);
            assertThat(frame.get("frame").asLong()).isEqualTo(i + 1);
            assertThat(frame.has("file")).isFalse();
            if (frame.get("roce").asBoolean()) {
                roce++;
                assertThat(fieldNames(frame)).as("frame %d", i + 1).startsWith("frame", "ts_ns", "roce", "version",
                    "vlan", "ip", "udp", "bth").endsWith("payload_len", "icrc");
                assertThat(fieldNames(frame.get("bth"))).containsExactly("opcode", "opname", "se", "m", "padcnt",
                    "tver", "pkey", "fecn", "becn", "dqpn", "ackreq", "psn");
                assertThat(frame.at("/icrc/valid").asBoolean()).as("ICRC of frame %d", i + 1).isTrue();
                assertThat(frame.at("/icrc/value").asText()).matches("[0-9a-f]{8}");
            } else {
                assertThat(fieldNames(frame)).containsExactly("frame", "ts_ns", "roce");
            }
        }
        assertThat(roce).isEqualTo(ROCE_FRAMES.get(capture.getFileName().toString()));
    }

    @Test
    void aKnownFrameOfTheWriteCaptureIsPrintedExactly() {
        final Path capture = Fixtures.fixtures().resolve("captures/soft-roce/rdma_write_bw.pcap");
        final Mrct.Run run = Mrct.run("decode", capture.toString());
        // Values as tshark 4.0 shows them (PSN 5454383, QP 0x1b, VA, R_Key 0xce6, ICRC 0x69d31da1, time 1781621761.226451).
        assertThat(run.lines().get(21)).isEqualTo("{\"frame\":22,\"ts_ns\":1781621761226451000,\"roce\":true,"
            + "\"version\":\"v2\",\"vlan\":null,\"ip\":{\"src\":\"10.1.16.62\",\"dst\":\"10.1.16.61\",\"dscp\":0,"
            + "\"ecn\":0},\"udp\":{\"sport\":49935},\"bth\":{\"opcode\":6,\"opname\":\"RDMA_WRITE_FIRST\",\"se\":false,"
            + "\"m\":false,\"padcnt\":0,\"tver\":0,\"pkey\":65535,\"fecn\":false,\"becn\":false,\"dqpn\":27,"
            + "\"ackreq\":false,\"psn\":5454383},\"reth\":{\"va\":\"0x00005e6b89b96000\",\"rkey\":3302,\"dmalen\":3000},"
            + "\"payload_len\":1024,\"icrc\":{\"value\":\"69d31da1\",\"valid\":true}}");
    }

    @Test
    void craftedMetaRoceWriteHasEveryValueItWasBuiltWith() throws IOException {
        final byte[] bytes = Crafted.writeOnly().build();
        final JsonNode frame = decodeOne(bytes);
        // FrameDescription's fixed key order (RETH before PLETH), not the wire order
        assertThat(fieldNames(frame)).containsExactly("frame", "ts_ns", "roce", "version", "vlan", "ip", "udp", "bth",
            "reth", "pleth", "payload_len", "icrc");
        assertThat(frame.get("frame").asLong()).isEqualTo(1);
        assertThat(frame.get("ts_ns").asLong()).isEqualTo(Crafted.T0);
        assertThat(frame.get("roce").asBoolean()).isTrue();
        assertThat(frame.get("version").asText()).isEqualTo("v2");
        assertThat(frame.get("vlan").isNull()).isTrue();
        assertThat(frame.at("/ip/src").asText()).isEqualTo("192.0.2.1");
        assertThat(frame.at("/ip/dst").asText()).isEqualTo("198.51.100.2");
        assertThat(frame.at("/ip/dscp").asInt()).isEqualTo(26);
        assertThat(frame.at("/ip/ecn").asInt()).isEqualTo(3);
        assertThat(frame.at("/udp/sport").asInt()).isEqualTo(0xC000);
        assertThat(frame.at("/bth/opcode").asInt()).isEqualTo(0x0A);
        assertThat(frame.at("/bth/opname").asText()).isEqualTo("RDMA_WRITE_ONLY");
        assertThat(frame.at("/bth/padcnt").asInt()).isEqualTo(3);
        assertThat(frame.at("/bth/tver").asInt()).isEqualTo(1);
        assertThat(frame.at("/bth/pkey").asInt()).isEqualTo(0xFFFF);
        assertThat(frame.at("/bth/dqpn").asInt()).isEqualTo(0x123456);
        assertThat(frame.at("/bth/ackreq").asBoolean()).isTrue();
        assertThat(frame.at("/bth/se").asBoolean()).isFalse();
        assertThat(frame.at("/bth/psn").asInt()).isEqualTo(0xABCDEF);
        assertThat(frame.get("pleth").toString())
            .isEqualTo("{\"msn\":7,\"first\":true,\"last\":true,\"offset\":4096,\"rsn\":3}");
        assertThat(frame.get("reth").toString())
            .isEqualTo("{\"va\":\"0x00007f0000001000\",\"rkey\":3735928559,\"dmalen\":8192}");
        assertThat(frame.get("payload_len").asInt()).isEqualTo(101);
        assertThat(frame.at("/icrc/value").asText()).isEqualTo(lastFourBytes(bytes));
        assertThat(frame.at("/icrc/valid").asBoolean()).isTrue();
    }

    @Test
    void craftedSelectiveAckOverIpv6WithVlan() throws IOException {
        final JsonNode frame = decodeOne(Crafted.sack().build());
        assertThat(frame.get("vlan").asInt()).isEqualTo(100);
        assertThat(InetAddress.getByName(frame.at("/ip/src").asText()))
            .isEqualTo(InetAddress.getByName("2001:db8::1"));
        assertThat(InetAddress.getByName(frame.at("/ip/dst").asText()))
            .isEqualTo(InetAddress.getByName("2001:db8::2"));
        assertThat(frame.get("aeth").toString()).isEqualTo("{\"syndrome\":97,\"msn\":42}");
        assertThat(frame.get("sacketh").toString()).isEqualTo("{\"base\":1000,\"bitmap\":\"8000000000000001\"}");
        assertThat(frame.get("payload_len").asInt()).isZero();
        assertThat(frame.at("/icrc/valid").asBoolean()).isTrue();
    }

    @Test
    void craftedAtomicsImmediateInvalidateDatagramAndCnp() throws IOException {
        final FrameBuilder compareSwap = FrameBuilder.of(Crafted.V4, Opcode.COMPARE_SWAP).tver(0)
            .with("atomiceth.va", 0xFFFFFFFFFFFFFFF8L).with("atomiceth.rkey", 0x80000001L)
            .with("atomiceth.swap", 0x0123456789ABCDEFL).with("atomiceth.compare", -1L);
        final FrameBuilder atomicAck = FrameBuilder.of(Crafted.V4, Opcode.ATOMIC_ACKNOWLEDGE).tver(0)
            .with("aeth.syndrome", 0x1F).with("aeth.msn", 5).with("atomicacketh.orig", 0x8000000000000000L);
        final FrameBuilder immediate = FrameBuilder.of(Crafted.V4, Opcode.SEND_ONLY_WITH_IMMEDIATE).tver(0)
            .payload(new byte[] {1, 2, 3, 4}).with("immdt", 0xCAFEBABEL);
        final FrameBuilder invalidate = FrameBuilder.of(Crafted.V4, Opcode.SEND_ONLY_WITH_INVALIDATE).tver(0)
            .with("ieth.rkey", 0x01020304L);
        final FrameBuilder datagram = FrameBuilder.of(Crafted.V4, Opcode.UD_SEND_ONLY)
            .with("deth.qkey", 0x80010000L).with("deth.srcqp", 0xABCDE).payload(new byte[6]);
        final FrameBuilder cnp = FrameBuilder.of(Crafted.V4, Opcode.CNP);
        final List<JsonNode> frames = decode(compareSwap.build(), atomicAck.build(), immediate.build(),
            invalidate.build(), datagram.build(), cnp.build());
        assertThat(frames.get(0).get("atomiceth").toString()).isEqualTo("{\"va\":\"0xfffffffffffffff8\","
            + "\"rkey\":2147483649,\"swap\":\"0x0123456789abcdef\",\"compare\":\"0xffffffffffffffff\"}");
        assertThat(frames.get(1).get("aeth").toString()).isEqualTo("{\"syndrome\":31,\"msn\":5}");
        assertThat(frames.get(1).get("atomicacketh").toString()).isEqualTo("{\"orig\":\"0x8000000000000000\"}");
        assertThat(frames.get(2).get("immdt").asLong()).isEqualTo(0xCAFEBABEL);
        assertThat(frames.get(2).get("payload_len").asInt()).isEqualTo(4);
        assertThat(frames.get(3).get("ieth").toString()).isEqualTo("{\"rkey\":16909060}");
        assertThat(frames.get(4).get("deth").toString()).isEqualTo("{\"qkey\":2147549184,\"srcqp\":703710}");
        assertThat(frames.get(4).get("payload_len").asInt()).isEqualTo(6);
        assertThat(frames.get(5).at("/bth/opname").asText()).isEqualTo("CNP");
        assertThat(frames.get(5).at("/bth/opcode").asInt()).isEqualTo(0x81);
        assertThat(frames.get(5).at("/bth/becn").asBoolean()).isTrue();
        for (final JsonNode frame : frames) {
            assertThat(frame.at("/icrc/valid").asBoolean()).as(frame.toString()).isTrue();
        }
        assertThat(frames).extracting(f -> f.get("frame").asInt()).containsExactly(1, 2, 3, 4, 5, 6);
        assertThat(frames).extracting(f -> f.get("ts_ns").asLong()).containsExactly(Crafted.T0,
            Crafted.T0 + Crafted.STEP, Crafted.T0 + 2 * Crafted.STEP, Crafted.T0 + 3 * Crafted.STEP,
            Crafted.T0 + 4 * Crafted.STEP, Crafted.T0 + 5 * Crafted.STEP);
    }

    @Test
    void roceV1HasAGrhAndNoUdp() throws IOException {
        final JsonNode frame = decodeOne(FrameBuilder.of(Encapsulation.roceV1("fe80::1", "fe80::2"),
            Opcode.SEND_ONLY).tver(0).payload(new byte[8]).build());
        assertThat(frame.get("version").asText()).isEqualTo("v1");
        assertThat(frame.has("udp")).isFalse();
        assertThat(InetAddress.getByName(frame.at("/ip/src").asText())).isEqualTo(InetAddress.getByName("fe80::1"));
        assertThat(frame.at("/icrc/valid").asBoolean()).isTrue();
    }

    @Test
    void aWrongIcrcIsReportedAsInvalid() throws IOException {
        final byte[] bytes = Crafted.writeOnly().correctIcrc(false).build();
        final JsonNode frame = decodeOne(bytes);
        assertThat(frame.at("/icrc/value").asText()).isEqualTo("00000000");
        assertThat(frame.at("/icrc/valid").asBoolean()).isFalse();
    }

    @Test
    void malformedFramesCarryTheErrorInsteadOfPayloadAndIcrc() throws IOException {
        final List<JsonNode> frames = decode(Crafted.missingReth().build(),
            FrameBuilder.of(Crafted.V4, Opcode.SEND_ONLY).tver(0).with("bth.padcnt", 3).build());
        final JsonNode truncated = frames.get(0);
        assertThat(truncated.get("roce").asBoolean()).isTrue();
        assertThat(fieldNames(truncated)).doesNotContain("payload_len", "icrc").endsWith("bth", "error");
        assertThat(fieldNames(truncated.get("error"))).containsExactly("reason", "field", "offset", "detail");
        assertThat(truncated.at("/error/reason").asText()).isEqualTo("TRUNCATED");
        assertThat(truncated.at("/error/field").asText()).isEqualTo("reth");
        assertThat(truncated.at("/error/offset").asInt()).isEqualTo(14 + 20 + 8 + 12);
        assertThat(truncated.at("/error/detail").asText()).contains("16 bytes");
        final JsonNode pad = frames.get(1);
        assertThat(pad.at("/error/reason").asText()).isEqualTo("PAD_EXCEEDS_PAYLOAD");
        assertThat(pad.at("/error/field").asText()).isEqualTo("bth.padcnt");
        assertThat(pad.at("/error/offset").asInt()).isEqualTo(14 + 20 + 8 + 1);
    }

    @Test
    void roceOnlyKeepsTheRecordNumbersAndTheMalformedFrames() throws IOException {
        final Path file = Crafted.pcap(dir.resolve("mixed.pcap"), List.of(Crafted.notRoce(),
            Crafted.writeOnly().build(), Crafted.notRoce(), Crafted.missingReth().build(), Crafted.notRoce()));
        final Mrct.Run all = Mrct.run("decode", file.toString());
        assertThat(all.lines()).hasSize(5);
        assertThat(all.lines().get(0)).isEqualTo("{\"frame\":1,\"ts_ns\":" + Crafted.T0 + ",\"roce\":false}");
        final Mrct.Run roce = Mrct.run("decode", "--roce-only", file.toString());
        assertThat(roce.status()).isZero();
        assertThat(parse(roce.lines())).extracting(f -> f.get("frame").asInt()).containsExactly(2, 4);
    }

    @Test
    void severalFilesAreNumberedPerFileAndNamed() throws IOException {
        final Path first = Crafted.pcap(dir.resolve("a.pcap"), List.of(Crafted.writeOnly().build(),
            Crafted.sack().build()));
        final Path second = Crafted.pcap(dir.resolve("b.pcap"), List.of(Crafted.notRoce()));
        final Mrct.Run run = Mrct.run("decode", first.toString(), second.toString());
        assertThat(run.status()).isZero();
        final List<JsonNode> frames = parse(run.lines());
        assertThat(frames).extracting(f -> f.get("file").asText()).containsExactly(first.toString(),
            first.toString(), second.toString());
        assertThat(frames).extracting(f -> f.get("frame").asInt()).containsExactly(1, 2, 1);
        assertThat(fieldNames(frames.get(2))).containsExactly("file", "frame", "ts_ns", "roce");
    }

    @Test
    void framesOfAnotherLinkTypeAreNotDecoded() throws IOException {
        final Path file = Crafted.pcap(dir.resolve("sll.pcap"), List.of(Crafted.writeOnly().build()),
            PcapWriter.Options.defaults().withLinkType(113));
        final Mrct.Run run = Mrct.run("decode", file.toString());
        assertThat(run.status()).isZero();
        assertThat(run.lines()).containsExactly("{\"frame\":1,\"ts_ns\":" + (Crafted.T0 / 1000 * 1000)
            + ",\"roce\":false,\"link_type\":113}");
        assertThat(Mrct.run("decode", "--roce-only", file.toString()).out()).isEmpty();
    }

    @Test
    void pcapngIsReadToo() throws IOException {
        final Path file = dir.resolve("two.pcapng");
        final byte[] frame = Crafted.writeOnly().build();
        try (PcapngWriter writer = PcapngWriter.create(file, PcapngWriter.Options.defaults())) {
            writer.addInterface(CaptureReader.LINKTYPE_ETHERNET, "eth0", 9);
            writer.write(0, Crafted.T0, frame);
            writer.write(0, Crafted.T0 + 1, ByteBuffer.wrap(Crafted.notRoce()), 0, 60, "a comment");
        }
        final List<JsonNode> frames = parse(Mrct.run("decode", file.toString()).lines());
        assertThat(frames).hasSize(2);
        assertThat(frames.get(0).at("/bth/psn").asInt()).isEqualTo(0xABCDEF);
        assertThat(frames.get(1).get("ts_ns").asLong()).isEqualTo(Crafted.T0 + 1);
    }

    private JsonNode decodeOne(final byte[] frame) throws IOException {
        final List<JsonNode> frames = decode(frame);
        assertThat(frames).hasSize(1);
        return frames.get(0);
    }

    private List<JsonNode> decode(final byte[]... frames) throws IOException {
        final Path file = Crafted.pcap(dir.resolve("crafted.pcap"), List.of(frames));
        final Mrct.Run run = Mrct.run("decode", file.toString());
        assertThat(run.status()).as(run.err()).isZero();
        assertThat(run.err()).isEmpty();
        return parse(run.lines());
    }

    private static List<JsonNode> parse(final List<String> lines) throws IOException {
        final List<JsonNode> nodes = new ArrayList<>();
        for (final String line : lines) {
            assertThat(line).as("one compact object per line").startsWith("{").endsWith("}").doesNotContain("\n");
            nodes.add(JSON.readTree(line));
        }
        return nodes;
    }

    private static List<String> fieldNames(final JsonNode node) {
        final List<String> names = new ArrayList<>();
        for (final Iterator<String> it = node.fieldNames(); it.hasNext();) {
            names.add(it.next());
        }
        return names;
    }

    private static String lastFourBytes(final byte[] frame) {
        return HexFormat.of().formatHex(frame, frame.length - 4, frame.length);
    }

    private static int records(final Path capture) throws IOException {
        int count = 0;
        try (CaptureReader reader = CaptureReader.open(capture)) {
            while (reader.next()) {
                count++;
            }
        }
        return count;
    }
}
