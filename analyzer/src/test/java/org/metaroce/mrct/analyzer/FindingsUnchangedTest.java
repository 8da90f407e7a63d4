package org.metaroce.mrct.analyzer;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metaroce.mrct.harness.profile.DeviceProfile;
import org.metaroce.mrct.harness.profile.ProfileLoader;
import org.metaroce.mrct.harness.result.CaseResult;
import org.metaroce.mrct.harness.result.ControlRecord;
import org.metaroce.mrct.harness.result.FieldDiff;
import org.metaroce.mrct.harness.result.FrameRecord;
import org.metaroce.mrct.testing.Fixtures;
import org.metaroce.mrct.wire.BigEndian;
import org.metaroce.mrct.wire.Checksums;
import org.metaroce.mrct.wire.DecodedFrame;
import org.metaroce.mrct.wire.FrameDecoder;
import org.metaroce.mrct.wire.HeaderKind;
import org.metaroce.mrct.wire.LittleEndian;
import org.metaroce.mrct.wire.capture.CaptureFormat;
import org.metaroce.mrct.wire.capture.PcapWriter;
import org.metaroce.mrct.wire.capture.PcapngWriter;

/**
 * The analysis gives exactly the findings it gave before its reader, decoder and checks were made faster: every case
 * of every scenario below (the soft-RoCE fixtures in each mode and with a profile, generated MetaRoCE traffic clean and
 * eventful, the same traffic damaged by seeded drops, copies, swaps, bit flips and edited PSNs, a pcapng with mrct
 * evidence comments, a capture cut by its snap length) is rendered canonically (every field of the {@link CaseResult},
 * maps in key order, frame bytes as a digest) and compared with {@code findings-golden.txt}, recorded by the analysis
 * as it was before the optimisation (commit a4d02fe). A mismatch names the scenario and case and shows the case as it
 * is now. Rewritten on 2026-12-04 when the rate series stopped at the flow's first frame instead of the capture's
 * start: the canonical forms before and after, compared by a script, differed in 43 of 1,064 cases, all connection
 * summaries, and only by 8,584 leading points of rate 0 dropped from their series, each series now starting with a
 * point above 0.
 *
 * <p>When a change of the checks is meant to change findings, rewrite the file with
 * {@code mvn -pl analyzer -am test -Dtest=FindingsUnchangedTest -Dsurefire.failIfNoSpecifiedTests=false
 * -Dmrct.golden.write=PATH} (PATH: {@code analyzer/src/test/resources/findings-golden.txt}) and review its diff.
 */
class FindingsUnchangedTest {
    private static final String GOLDEN = "/findings-golden.txt";

    @TempDir
    Path dir;

    @Test
    void everyScenarioGivesTheRecordedFindings() throws IOException {
        final Map<String, List<String>> now = new LinkedHashMap<>();
        final DeviceProfile profile;
        try {
            profile = ProfileLoader.load(Fixtures.fixtures().resolve("profiles/reference.yaml"), Analyses.SPEC);
        } catch (ProfileLoader.ProfileException e) {
            throw new IllegalStateException(e);
        }
        // every connection held to the end, as when these findings were recorded: nccl_ring2_node0.pcap idles longer
        // than the reference profile's release window and splits into segments then (ConnectionReleaseTest)
        final CaptureAnalyzer.Options defaults = CaptureAnalyzer.Options.defaults().withRelease(0, 0);
        for (final Path capture : Fixtures.softRoceCaptures()) {
            final String name = capture.getFileName().toString();
            now.put(name + " default", render(Analyses.run(capture, defaults)));
            now.put(name + " complete", render(Analyses.run(capture, defaults.withComplete(true))));
            now.put(name + " metaroce", render(Analyses.run(capture, defaults.withMode(CaptureAnalyzer.Mode.METAROCE))));
            now.put(name + " profile", render(Analyses.run(capture, defaults.withProfile(profile))));
        }
        final Path clean = dir.resolve("clean.pcap");
        TrafficGenerator.write(clean, TrafficGenerator.Options.clean(12_000, 3));
        now.put("generated clean", render(Analyses.run(clean, defaults)));
        final Path eventful = dir.resolve("eventful.pcap");
        TrafficGenerator.write(eventful, TrafficGenerator.Options.eventful(40_000, 11));
        now.put("generated eventful", render(Analyses.run(eventful, defaults)));
        now.put("generated eventful complete", render(Analyses.run(eventful, defaults.withComplete(true))));
        now.put("generated eventful legacy", render(Analyses.run(eventful,
            defaults.withMode(CaptureAnalyzer.Mode.LEGACY))));
        final List<Captures.Record> records = Captures.read(eventful);
        final Path damaged = Captures.write(dir.resolve("damaged.pcap"), damage(records, 42));
        now.put("generated eventful damaged", render(Analyses.run(damaged, defaults)));
        now.put("generated eventful damaged complete", render(Analyses.run(damaged, defaults.withComplete(true))));
        now.put("generated eventful damaged profile", render(Analyses.run(damaged, defaults.withProfile(profile))));
        now.put("generated eventful evidence", render(Analyses.run(evidence(damage(records.subList(0, 20_000), 7)),
            defaults)));
        now.put("generated eventful snap length 200", render(Analyses.run(Captures.write(dir.resolve("cut.pcap"),
            records.subList(0, 10_000), PcapWriter.Options.defaults().withFormat(CaptureFormat.PCAP_NANO)
                .withSnapLength(200)), defaults)));

        final String property = System.getProperty("mrct.golden.write");
        if (property != null && !property.isBlank()) {
            final StringBuilder text = new StringBuilder();
            now.forEach((scenario, lines) -> {
                text.append("## ").append(scenario).append('\n');
                lines.forEach(line -> text.append(line).append('\n'));
            });
            Files.writeString(Path.of(property), text, StandardCharsets.UTF_8);
            return; // recorded, not compared: review the file's diff
        }
        final Map<String, List<String>> golden = golden();
        assertThat(now.keySet()).containsExactlyElementsOf(golden.keySet());
        for (final Map.Entry<String, List<String>> scenario : now.entrySet()) {
            final List<String> expected = golden.get(scenario.getKey());
            final List<String> actual = scenario.getValue();
            for (int i = 0; i < Math.max(expected.size(), actual.size()); i++) {
                final String want = i < expected.size() ? expected.get(i) : "(no case)";
                final String got = i < actual.size() ? actual.get(i) : "(no case)";
                assertThat(got).as("scenario %s, case %d%s", scenario.getKey(), i + 1,
                    i < actual.size() ? ", now:\n" + CANONICAL.get(got) : "").isEqualTo(want);
            }
        }
    }

    /** Canonical text of the cases, by their line: for the message of a mismatch. */
    private static final Map<String, String> CANONICAL = new TreeMap<>();

    /**
     * One line per case: ID, verdict, digest of its canonical form, its reason cut to 160 characters; the paths of the
     * temporary directory and of the checkout are written as {@code TMP} and {@code ROOT}.
     */
    private List<String> render(final Analyses.Result result) {
        final List<String> lines = new ArrayList<>();
        final StringBuilder head = new StringBuilder("outcome");
        result.outcome().files().forEach(f -> head.append(' ').append(f.frames()).append('/').append(f.roceFrames())
            .append('/').append(f.connections()).append('/').append(f.cutFrames()).append('/')
            .append(f.otherLinkFrames()).append('/').append(f.evidence()).append('/').append(f.problem()));
        head.append(' ').append(new TreeMap<>(result.outcome().checks())).append(' ')
            .append(result.summary().overall()).append(": ").append(result.summary().reason()).append(" violations ")
            .append(digest(String.join("\n", result.outcome().violations())));
        lines.add(portable(head.toString()));
        for (final CaseResult c : result.cases()) {
            final String canonical = portable(canonical(c));
            final String reason = c.reason() == null ? "" : portable(c.reason());
            final String line = c.id() + " " + c.verdict() + " " + digest(canonical) + " "
                + (reason.length() > 160 ? reason.substring(0, 160) + "..." : reason).replace('\n', ' ');
            CANONICAL.put(line, canonical);
            lines.add(line);
        }
        return lines;
    }

    private String portable(final String text) {
        return text.replace(dir.toString(), "TMP").replace(Fixtures.root().toString(), "ROOT");
    }

    /** Every field of a case, in a fixed order; frame bytes as their digest, maps sorted by key. */
    static String canonical(final CaseResult c) {
        final StringBuilder t = new StringBuilder();
        t.append("id=").append(c.id()).append("\ncaseId=").append(c.caseId()).append("\ntitle=").append(c.title())
            .append("\narea=").append(c.area()).append("\nrules=").append(c.rules()).append("\nlevel=")
            .append(c.level()).append("\nrole=").append(c.role() == null ? null : c.role().label())
            .append("\nfile=").append(c.file())
            .append("\nparameters=").append(new TreeMap<>(c.parameters())).append("\nverdict=").append(c.verdict())
            .append("\nreason=").append(c.reason()).append("\nwall=").append(c.wallNanos()).append(" device=")
            .append(c.deviceNanos()).append(" attempts=").append(c.attempts());
        if (c.failure() != null) {
            final var f = c.failure();
            t.append("\nfailure=").append(f.rule()).append('|').append(f.step()).append('|')
                .append(f.stepDescription()).append('|').append(f.stepLine()).append('|').append(f.frame())
                .append('|').append(f.expectedFrame()).append('|').append(f.actualFrame()).append('|')
                .append(f.message());
            for (final FieldDiff d : f.diffs()) {
                t.append("\n  diff ").append(d.field()).append(" expected=").append(d.expected()).append(" actual=")
                    .append(d.actual());
            }
        }
        for (final FrameRecord r : c.evidence()) {
            t.append("\nframe ").append(r.index()).append(' ').append(r.direction()).append(' ')
                .append(r.timestampNanos()).append(' ').append(digest(r.bytes())).append(' ').append(r.step())
                .append(' ').append(r.note()).append(' ')
                .append(r.decoded() == null ? "null" : new TreeMap<>(r.decoded()));
        }
        for (final String note : c.notes()) {
            t.append("\nnote ").append(note);
        }
        for (final Map.Entry<String, List<double[]>> s : new TreeMap<>(c.series()).entrySet()) {
            t.append("\nseries ").append(s.getKey());
            for (final double[] point : s.getValue()) {
                t.append(' ').append(Arrays.toString(point));
            }
        }
        for (final ControlRecord r : c.control()) {
            t.append("\ncontrol ").append(r);
        }
        return t.toString();
    }

    /**
     * A copy of {@code records} damaged as a lossy, buggy capture would be: seeded drops, byte-for-byte copies, swapped
     * neighbours, flipped bytes anywhere in a frame, and PSNs moved with the IPv4 checksum and ICRC made right again
     * (a device bug rather than a corruption).
     */
    static List<Captures.Record> damage(final List<Captures.Record> records, final long seed) {
        final SplittableRandom random = new SplittableRandom(seed);
        final List<Captures.Record> out = new ArrayList<>(records.size() + records.size() / 100);
        for (int i = 0; i < records.size(); i++) {
            Captures.Record record = records.get(i);
            final int roll = random.nextInt(1000);
            if (roll < 3) {
                continue;
            }
            if (roll < 6) {
                out.add(record);
            } else if (roll < 8 && i + 1 < records.size()) {
                out.add(records.get(++i));
            } else if (roll < 11) {
                final byte[] bytes = record.bytes().clone();
                bytes[random.nextInt(bytes.length)] ^= (byte) (1 + random.nextInt(255));
                record = record.withBytes(bytes);
            } else if (roll < 13 && record.bytes().length > 60) {
                record = record.withBytes(withPsn(record.bytes(), random.nextInt(1 << 24)));
            }
            out.add(record);
        }
        return out;
    }

    /** A RoCEv2/IPv4 frame without options with another BTH PSN, its ICRC made right again. */
    private static byte[] withPsn(final byte[] frame, final int psn) {
        final byte[] copy = frame.clone();
        final ByteBuffer buffer = ByteBuffer.wrap(copy);
        BigEndian.u24(buffer, 51, psn);
        BigEndian.u16(buffer, 24, 0);
        BigEndian.u16(buffer, 24, Checksums.ipv4Header(buffer, 14));
        final DecodedFrame decoded = new FrameDecoder().decode(buffer, 0, copy.length);
        if (decoded.has(HeaderKind.ICRC)) {
            LittleEndian.i32(buffer, decoded.offset(HeaderKind.ICRC), decoded.computeIcrc());
        }
        return copy;
    }

    /**
     * The records as the evidence of a run: pcapng, each frame commented with its case (a new case every 2,500
     * frames) and its direction (the requester's frames come from the harness, the responder's from the device), one
     * harness frame in 300 recorded as dropped.
     */
    private Path evidence(final List<Captures.Record> records) throws IOException {
        final Path file = dir.resolve("evidence.pcapng");
        try (PcapngWriter writer = PcapngWriter.create(file, PcapngWriter.Options.defaults())) {
            final int id = writer.addInterface(1, "mrct0", 9);
            for (int i = 0; i < records.size(); i++) {
                final byte[] bytes = records.get(i).bytes();
                final boolean fromRequester = bytes.length > 30 && (bytes[29] & 0xFF) == 1;
                final String comment = "mrct case=GEN-" + (1 + i / 2_500) + "%2Fx dir="
                    + (fromRequester ? "to-dut" : "from-dut") + (fromRequester && i % 300 == 0
                    ? " note=dropped%20by%20the%20harness" : "");
                writer.write(id, records.get(i).tsNs(), ByteBuffer.wrap(bytes), 0, bytes.length, comment);
            }
        }
        return file;
    }

    private static Map<String, List<String>> golden() throws IOException {
        final Map<String, List<String>> golden = new LinkedHashMap<>();
        try (InputStream in = FindingsUnchangedTest.class.getResourceAsStream(GOLDEN)) {
            assertThat(in).as(GOLDEN + " on the test class path").isNotNull();
            List<String> current = null;
            for (final String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (line.startsWith("## ")) {
                    current = new ArrayList<>();
                    golden.put(line.substring(3), current);
                } else if (current != null && !line.isEmpty()) {
                    current.add(line);
                }
            }
        }
        return golden;
    }

    private static String digest(final String text) {
        return digest(text.getBytes(StandardCharsets.UTF_8));
    }

    private static String digest(final byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes), 0, 12);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
