package org.metaroce.mrct.replay;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metaroce.mrct.analyzer.CaptureAnalyzer;
import org.metaroce.mrct.harness.engine.Runner;
import org.metaroce.mrct.harness.result.CaseResult;
import org.metaroce.mrct.harness.result.EvidenceComment;
import org.metaroce.mrct.harness.result.FieldDiff;
import org.metaroce.mrct.harness.result.RunListener;
import org.metaroce.mrct.harness.result.Verdict;
import org.metaroce.mrct.oracle.FrameRule;
import org.metaroce.mrct.wire.DecodedFrame;
import org.metaroce.mrct.wire.FrameDecoder;
import org.metaroce.mrct.wire.HeaderKind;
import org.metaroce.mrct.wire.LittleEndian;
import org.metaroce.mrct.wire.OpKind;
import org.metaroce.mrct.wire.Opcode;
import org.metaroce.mrct.wire.capture.CaptureReader;

/**
 * The same evidence judged live and by {@code mrct analyze} gives the same findings for the per-frame rules: cases run
 * against the reference NIC, one frame of the device per case is damaged in the recorded evidence (a bad ICRC, a UDP
 * checksum, Not-ECT or CE on a data packet, TTL 0, BTH, PLETH, AETH and SACKETH fields), then the recording is
 * replayed (the live engine judges the damaged frames again) and analysed. Both must find exactly the damage: the
 * same (rule, field, frame) set.
 */
class LiveAndAnalyzeAgreeTest {
    @TempDir
    static Path dir;

    /** Damage to one frame of the device: which frame of the case, what to change, what it breaks. */
    private record Damage(String casePrefix, Predicate<DecodedFrame> frame, Consumer<DecodedFrame> change,
                          String rule, String field) {
    }

    private static final Predicate<DecodedFrame> ACK = f -> f.opcode() == Opcode.ACKNOWLEDGE;
    private static final Predicate<DecodedFrame> READ_RESPONSE = f -> f.opcode().kind() == OpKind.RDMA_READ_RESPONSE;
    private static final Predicate<DecodedFrame> REQUEST_WITH_PLETH = f -> f.opcode().kind().isRequest()
        && f.has(HeaderKind.PLETH);

    private static final List<Damage> DAMAGE = List.of(
        new Damage("ACK-001-ack-fields", ACK, f -> flip(f, f.offset(HeaderKind.ICRC)), "MR-WIRE-014", "icrc"),
        new Damage("ACK-002-sack-bitmap-edges", ACK, f -> f.buffer().putShort(f.offset(HeaderKind.UDP) + 6,
            (short) 0x1234), "MR-WIRE-009", "udp.checksum"),
        new Damage("ACK-003-msn-counting", ACK, f -> ipv4(f, () -> f.ipv4().ttl(0)), "MR-WIRE-004", "ip.ttl"),
        new Damage("ACK-005-ackreq-in-order", ACK, f -> covered(f, () -> f.buffer().put(f.offset(HeaderKind.SACKETH),
            (byte) 1)), "MR-ACK-002", "sacketh.resv"),
        new Damage("ACK-008-hole-close-ack", ACK, f -> covered(f, () -> orByte(f, f.offset(HeaderKind.BTH) + 1, 0x40)),
            "MR-WIRE-013", "bth.m"),
        new Damage("ACK-010-cumulative-never-moves-back", ACK, f -> covered(f, () -> f.buffer()
            .put(f.offset(HeaderKind.AETH), (byte) 0x41)), "MR-HDR-008", "aeth.syndrome"),
        new Damage("RD-002-read-responses-every-pmtu", READ_RESPONSE, f -> ipv4(f, () -> f.ipv4().tos(
            f.ipv4().dscp(), 0)), "MR-CC-001", "ip.ecn"),
        new Damage("RD-006-successive-reads-in-order", READ_RESPONSE, f -> ipv4(f, () -> f.ipv4().tos(
            f.ipv4().dscp(), 3)), "MR-CC-002", "ip.ecn"),
        new Damage("REQ-004-segment-sizes", REQUEST_WITH_PLETH, f -> covered(f, () -> f.buffer()
            .put(f.offset(HeaderKind.PLETH) + 11, (byte) 1)), "MR-HDR-003", "pleth.resv"));

    @Test
    void theLiveEngineAndTheAnalyzerFindTheSameDamage() throws Exception {
        final Recordings recordings = new Recordings();
        final List<Runner.Planned> plan = new ArrayList<>();
        for (final Damage damage : DAMAGE) {
            final List<Runner.Planned> selected = recordings.select(damage.casePrefix());
            assertThat(selected).as(damage.casePrefix()).isNotEmpty();
            plan.add(selected.get(0));
        }
        final Map<String, CaseResult> recorded = recordings.record(dir.resolve("run"), plan, Set.of());
        assertThat(recorded.values()).allSatisfy(r -> assertThat(r.verdict()).as(r.id() + ": " + r.reason())
            .isEqualTo(Verdict.PASS));

        // damage the first matching frame of the device in each case, and note its record number in the file
        final Path damaged = dir.resolve("damaged.pcapng");
        final Map<String, Damage> byCase = new HashMap<>();
        for (int i = 0; i < plan.size(); i++) {
            byCase.put(plan.get(i).id(), DAMAGE.get(i));
        }
        final Map<String, String> damagedIndex = new HashMap<>();
        final FrameDecoder decoder = new FrameDecoder();
        Recordings.copy(dir.resolve("run/evidence.pcapng"), damaged, null, (fields, bytes) -> {
            final String id = fields.get("case");
            final Damage damage = byCase.get(id);
            if (damage == null || !"from-dut".equals(fields.get("dir")) || damagedIndex.containsKey(id)) {
                return bytes;
            }
            final DecodedFrame f = decoder.decode(ByteBuffer.wrap(bytes), 0, bytes.length);
            if (f.isRoce() && damage.frame().test(f)) {
                damage.change().accept(f);
                damagedIndex.put(id, fields.get("index"));
            }
            return bytes;
        });
        assertThat(damagedIndex.keySet()).as("every case had a frame to damage").isEqualTo(byCase.keySet());
        final Map<String, Long> recordOf = new HashMap<>();
        try (CaptureReader reader = CaptureReader.open(damaged)) {
            while (reader.next()) {
                final Map<String, String> fields = EvidenceComment.parse(reader.comment());
                if ("from-dut".equals(fields.get("dir"))) {
                    recordOf.put(fields.get("case") + "#" + fields.get("index"), reader.recordNumber());
                }
            }
        }

        final Set<String> expected = new TreeSet<>();
        for (final Map.Entry<String, Damage> entry : byCase.entrySet()) {
            expected.add(entry.getValue().rule() + " " + entry.getValue().field() + " @"
                + recordOf.get(entry.getKey() + "#" + damagedIndex.get(entry.getKey())));
        }

        // the live engine: the replay judges every frame of the device again, and fails each case on its damage
        final Set<String> live = new TreeSet<>();
        for (final CaseResult result : recordings.replay(damaged, plan).values()) {
            assertThat(result.verdict()).as(result.id() + ": " + result.reason()).isEqualTo(Verdict.FAIL);
            for (final FieldDiff diff : result.failure().diffs()) {
                live.add(result.failure().rule() + " " + diff.field() + " @"
                    + recordOf.get(result.id() + "#" + result.failure().frame()));
            }
        }

        // the analyzer: every failing check of a per-frame rule, each with its one finding
        final Set<String> perFrameRules = new HashSet<>();
        for (final FrameRule rule : FrameRule.values()) {
            perFrameRules.add(rule.rule());
        }
        final Set<String> analyzed = new TreeSet<>();
        final Pattern at = Pattern.compile("^1 violation, first at frame (\\d+): ");
        final List<CaseResult> cases = new ArrayList<>();
        new CaptureAnalyzer(recordings.spec, CaptureAnalyzer.Options.defaults()).analyze(List.of(damaged),
            new RunListener() {
                @Override
                public void caseFinished(final CaseResult result) {
                    cases.add(result);
                }
            });
        for (final CaseResult result : cases) {
            if (result.verdict() != Verdict.FAIL || result.failure() == null
                || !perFrameRules.contains(result.failure().rule())) {
                continue;
            }
            final Matcher m = at.matcher(result.reason());
            assertThat(m.find()).as(result.id() + ": " + result.reason()).isTrue();
            assertThat(result.failure().diffs()).hasSize(1);
            analyzed.add(result.failure().rule() + " " + result.failure().diffs().get(0).field() + " @" + m.group(1));
        }

        assertThat(live).as("live").isEqualTo(expected);
        assertThat(analyzed).as("analyzed").isEqualTo(expected);
    }

    private static void flip(final DecodedFrame f, final int at) {
        f.buffer().put(at, (byte) (f.buffer().get(at) ^ 0x01));
    }

    private static void orByte(final DecodedFrame f, final int at, final int bits) {
        f.buffer().put(at, (byte) (f.buffer().get(at) | bits));
    }

    /** A change to an IPv4 field the ICRC masks, with the header checksum made right again. */
    private static void ipv4(final DecodedFrame f, final Runnable change) {
        change.run();
        f.ipv4().checksum(f.ipv4().computeChecksum());
    }

    /** A change to a field the ICRC covers, with the ICRC made right again. */
    private static void covered(final DecodedFrame f, final Runnable change) {
        change.run();
        LittleEndian.i32(f.buffer(), f.offset(HeaderKind.ICRC), f.computeIcrc());
    }
}
