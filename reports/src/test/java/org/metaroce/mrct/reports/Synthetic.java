package org.metaroce.mrct.reports;

import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.metaroce.mrct.harness.result.BaselineComparison;
import org.metaroce.mrct.harness.result.CaseResult;
import org.metaroce.mrct.harness.result.Direction;
import org.metaroce.mrct.harness.result.Failure;
import org.metaroce.mrct.harness.result.FieldDiff;
import org.metaroce.mrct.harness.result.FrameRecord;
import org.metaroce.mrct.harness.result.RuleVerdict;
import org.metaroce.mrct.harness.result.RunInfo;
import org.metaroce.mrct.harness.result.RunListener;
import org.metaroce.mrct.harness.result.RunSummary;
import org.metaroce.mrct.harness.result.Verdict;
import org.metaroce.mrct.harness.spec.Specification;
import org.metaroce.mrct.wire.Encapsulation;
import org.metaroce.mrct.wire.FrameBuilder;
import org.metaroce.mrct.wire.FrameDecoder;
import org.metaroce.mrct.wire.FrameDescription;
import org.metaroce.mrct.wire.Opcode;
import org.metaroce.mrct.harness.spec.Level;
import org.metaroce.mrct.harness.spec.Role;
import org.metaroce.mrct.harness.result.Overall;

/**
 * Synthetic runs for the report tests: real frames (built with {@link FrameBuilder}, described with
 * {@link FrameDescription}), every verdict, failures with field diffs, a parameter table, series, and hostile strings.
 */
final class Synthetic {
    static final Instant START = Instant.parse("2026-03-01T09:30:00.123456789Z");
    static final Instant END = Instant.parse("2026-03-01T09:31:02.5Z");
    static final Encapsulation TO_DUT = Encapsulation.ipv4("10.0.0.1", "10.0.0.2");
    static final Encapsulation FROM_DUT = Encapsulation.ipv4("10.0.0.2", "10.0.0.1");

    /** Hostile text for titles and reasons: markup, script end, entities, quotes, control characters. */
    static final String HOSTILE = "</script><img src=x onerror=\"document.body.dataset.pwned='1'\"> <!-- & &amp; "
        + "'quoted' \"double\" | pipe `tick` ]]> {{SPEC}} \u0001\u0007\u001b[31m \u2028line\u2029sep \uD800 end";

    /** A small specification covering the synthetic cases' rules. */
    static final String SPEC_TEXT = String.join("\n",
        "# MetaRoCE v1.0 (test extract)",
        "",
        "## HDR",
        "",
        "**MR-HDR-001** (MUST, any) A MetaRoCE v1 frame carries BTH.TVer 1.",
        "",
        "## QP",
        "",
        "**MR-QP-001** (MUST, any) A QP in RTS accepts requests.",
        "",
        "## ORD",
        "",
        "**MR-ORD-001** (MUST, responder) The responder places a packet at its PLETH offset whatever its arrival order.",
        "",
        "## PLC",
        "",
        "**MR-PLC-001** (SHOULD, responder) The responder coalesces acknowledgements of one message.",
        "",
        "## ATM",
        "",
        "**MR-ATM-001** (MUST, responder, if atomics) The responder executes an atomic exactly once.",
        "",
        "## ROB",
        "",
        "**MR-ROB-001** (MUST, any) A frame with a bad ICRC is dropped <silently> & counted.",
        "",
        "## CC",
        "",
        "**MR-CC-001** (SHOULD, requester) The requester lowers its rate on a CNP.",
        "",
        "## Appendix A: PICS",
        "",
        "| item | meaning |",
        "| --- | --- |",
        "| atomics | the device executes atomics |",
        "");

    private Synthetic() {
    }

    static Specification spec() {
        return Specification.parse(SPEC_TEXT, "test-spec.md");
    }

    static RunInfo info(final int caseCount) {
        final Map<String, Object> parameters = new LinkedHashMap<>();
        parameters.put("recv_window", 256L);
        parameters.put("pmtu", 1024L);
        parameters.put("ack_coalescing", "per-qp");
        return new RunInfo("1.0.0-test", "1.0", "reference", "Acme", "RN-9", "fw 2.1.0", "profiles/acme.yaml",
            "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08", List.of("atomics-no", "sack"),
            parameters, -7354920016391124837L, false, null, List.of("HDR", "ORD-*", "!ORD-009"), caseCount, START);
    }

    /** Describes {@code bytes} as {@code mrct decode} does. */
    static Map<String, Object> describe(final byte[] bytes, final int number, final long ts) {
        return FrameDescription.describe(new FrameDecoder().decode(ByteBuffer.wrap(bytes), 0, bytes.length), number,
            ts);
    }

    static FrameRecord frame(final int index, final Direction direction, final long ts, final byte[] bytes,
                             final int step, final String note) {
        return new FrameRecord(index, direction, ts, bytes, step, note, describe(bytes, index + 1, ts));
    }

    static byte[] send(final int psn) {
        return FrameBuilder.of(TO_DUT, Opcode.SEND_ONLY).psn(psn).destQp(0x11).payload(new byte[] {1, 2, 3, 4, 5})
            .build();
    }

    static byte[] ack(final int psn) {
        return FrameBuilder.of(FROM_DUT, Opcode.ACKNOWLEDGE).psn(psn).destQp(0x22).build();
    }

    static CaseResult pass() {
        return new CaseResult("HDR-001", "HDR-001", "TVer is 1 on every frame", "headers", List.of("MR-HDR-001"),
            Level.MUST, Role.RESPONDER, "headers/hdr-001.yaml", Map.of(), Verdict.PASS, "every frame carried TVer 1",
            null, 1_234_567L, 800_000L, 1,
            List.of(frame(0, Direction.TO_DUT, 0, send(0), 0, "sent"),
                frame(1, Direction.FROM_DUT, 4_500, ack(0), 1, "matched")),
            List.of("1 left-over frame ignored"), Map.of());
    }

    static Failure orderingFailure() {
        return new Failure("MR-ORD-001", 3, "expect ACK psn=2 sacketh.bitmap=0b101", 27, 3,
            List.of(new FieldDiff("bth.psn", "2 (0x2)", "1 (0x1)"),
                new FieldDiff("sacketh.bitmap", "5 (0x5)", "7 (0x7)")),
            "ACKNOWLEDGE psn=2", "ACKNOWLEDGE psn=1 dqpn=0x22", "the responder acknowledged PSN 1 instead of 2");
    }

    static CaseResult fail() {
        final byte[] ce = FrameBuilder.of(TO_DUT, Opcode.SEND_ONLY).psn(2).destQp(0x11).ecn(3).build();
        final byte[] badIcrc = FrameBuilder.of(TO_DUT, Opcode.SEND_ONLY).psn(1).destQp(0x11).correctIcrc(false)
            .build();
        return new CaseResult("ORD-004", "ORD-004", "Out-of-order SEND is placed and acknowledged", "ordering",
            List.of("MR-ORD-001"), Level.MUST, Role.RESPONDER, "ordering/ord-004.yaml", Map.of(), Verdict.FAIL,
            "the responder acknowledged PSN 1 instead of 2", orderingFailure(), 3_000_000L, 2_000_000L, 1,
            List.of(frame(0, Direction.TO_DUT, 0, send(0), 0, "sent"),
                frame(1, Direction.TO_DUT, 1_000, ce, 1, "sent"),
                frame(2, Direction.TO_DUT, 2_000, badIcrc, 2, "sent"),
                frame(3, Direction.FROM_DUT, 9_000, ack(1), 3, "matched"),
                frame(4, Direction.FROM_DUT, 9_500, ack(1), -1, "unexpected")),
            List.of(), Map.of());
    }

    static CaseResult warn() {
        final Map<String, Object> row = new TreeMap<>();
        row.put("pmtu", 256L);
        row.put("mode", "write");
        return new CaseResult("PLC-003[mode=write,pmtu=256]", "PLC-003", "ACKs of a message are coalesced",
            "placement", List.of("MR-PLC-001"), Level.SHOULD, Role.RESPONDER, "placement/plc-003.yaml", row,
            Verdict.WARN,
            "the responder sent 4 ACKs for one message",
            new Failure("MR-PLC-001", 5, "expect at most 1 ACK", 40, -1, List.of(), null, null,
                "4 ACKs arrived for message 0"), 2_000_000L, 1_500_000L, 1,
            List.of(frame(0, Direction.TO_DUT, 0, send(0), 0, "sent")), List.of(), Map.of());
    }

    static CaseResult passRow() {
        return new CaseResult("PLC-003[mode=write,pmtu=1024]", "PLC-003", "ACKs of a message are coalesced",
            "placement", List.of("MR-PLC-001"), Level.SHOULD, Role.RESPONDER, "placement/plc-003.yaml",
            Map.of("pmtu", 1024L, "mode", "write"), Verdict.PASS, "one ACK for the message", null, 900_000L,
            700_000L, 1, List.of(), List.of(), Map.of());
    }

    static CaseResult notApplicable() {
        return new CaseResult("ATM-001", "ATM-001", "Compare-and-swap executes once", "atomics",
            List.of("MR-ATM-001"), Level.MUST, Role.RESPONDER, "atomics/atm-001.yaml", Map.of(), Verdict.NOT_APPLICABLE,
            "the profile does not claim PICS item atomics", null, 1_000L, 0L, 1, List.of(), List.of(), Map.of());
    }

    static CaseResult inconclusive() {
        return new CaseResult("ROB-002", "ROB-002", "A bad ICRC is dropped", "robustness", List.of("MR-ROB-001"),
            Level.MUST, Role.ANY, "robustness/rob-002.yaml", Map.of(), Verdict.INCONCLUSIVE,
            "the capture dropped 2 frames", null, 5_000_000L, 4_000_000L, 2,
            List.of(frame(0, Direction.TO_DUT, 0, send(7), 0, "sent"),
                frame(1, Direction.FROM_DUT, 3_000, ack(7), -1, "dropped by the harness")),
            List.of("rerun once: evidence incomplete"), Map.of());
    }

    static CaseResult error() {
        return new CaseResult("QP-001", "QP-001", "RTS accepts requests", "qp", List.of("MR-QP-001"), Level.MUST,
            Role.ANY,
            "qp/qp-001.yaml", Map.of(), Verdict.ERROR, "adapter error: modify_qp(RTS) timed out after 5 s", null,
            5_100_000_000L, 0L, 1, List.of(), List.of(), Map.of());
    }

    static CaseResult congestion() {
        final Map<String, List<double[]>> series = new LinkedHashMap<>();
        final List<double[]> rate = new ArrayList<>();
        final List<double[]> cnp = new ArrayList<>();
        for (int i = 0; i <= 20; i++) {
            rate.add(new double[] {i * 1000.0, i < 5 ? 100.0 : 100.0 / (1 + (i - 4) * 0.5)});
            cnp.add(new double[] {i * 1000.0, i >= 5 && i % 3 == 0 ? 1.0 : 0.0});
        }
        series.put("rate_gbps", rate);
        series.put("cnp", cnp);
        return new CaseResult("CC-001", "CC-001", "The requester slows down on CNPs", "congestion",
            List.of("MR-CC-001"), Level.SHOULD, Role.REQUESTER, "congestion/cc-001.yaml", Map.of(), Verdict.PASS,
            "the rate fell to 20 Gb/s within 15 us", null, 8_000_000L, 20_000L, 1,
            List.of(frame(0, Direction.FROM_DUT, 0, send(0), 0, "matched")), List.of(), series);
    }

    /**
     * A requester congestion case with the series the harness gathers: a QP's window rate, its DCQCN model Rc (a step
     * function), the CNPs it received and the switch queue (times in microseconds), plus one series of another kind.
     */
    static CaseResult requesterCongestion() {
        final Map<String, List<double[]>> series = new LinkedHashMap<>();
        final List<double[]> rate = new ArrayList<>();
        for (int i = 1; i <= 20; i++) {
            rate.add(new double[] {i * 5.0, i * 5 <= 10 ? 99_000.0 : i * 5 <= 65 ? 49_500.0 : 74_000.0});
        }
        final List<double[]> queue = new ArrayList<>();
        for (int i = 0; i <= 10; i++) {
            queue.add(new double[] {i * 10.0, i <= 3 ? i * 10_000.0 : 4186.0});
        }
        series.put("q.cnp", List.of(new double[] {10, 0}, new double[] {60, 0}));
        series.put("q.model_rc_mbps", List.of(new double[] {0, 100_000}, new double[] {10, 50_000},
            new double[] {65, 75_000}));
        series.put("q.rate_mbps", rate);
        series.put("switch.queue_bytes", queue);
        series.put("other", List.of(new double[] {0, 1}, new double[] {100, 2}));
        return new CaseResult("CC-010", "CC-010", "Each CNP cuts the rate", "cc", List.of("MR-CC-010"), Level.MUST,
            Role.REQUESTER, "cc/cc-010.yaml", Map.of(), Verdict.PASS, "every expectation held", null, 8_000_000L,
            100_000L, 1, List.of(frame(0, Direction.FROM_DUT, 0, send(0), 0, "to the peer")), List.of(), series);
    }

    /** One case of each verdict (two rows of a table case), in run order. */
    static List<CaseResult> allVerdicts() {
        return List.of(pass(), fail(), warn(), passRow(), notApplicable(), inconclusive(), error(), congestion());
    }

    /** A case with hostile strings in every free-text field. */
    static CaseResult hostile() {
        return new CaseResult("ROB-666", "ROB-666", "title " + HOSTILE, "robustness", List.of("MR-ROB-001"), Level.MUST,
            Role.ANY, "robustness/" + HOSTILE + ".yaml", Map.of("evil", HOSTILE), Verdict.FAIL, "reason " + HOSTILE,
            new Failure("MR-ROB-001", 0, "step " + HOSTILE, 3, 0,
                List.of(new FieldDiff("bth.psn" + HOSTILE, "exp " + HOSTILE, "act " + HOSTILE)),
                "expected " + HOSTILE, "actual " + HOSTILE, "message " + HOSTILE),
            10L, 10L, 1, List.of(frame(0, Direction.TO_DUT, 0, send(0), 0, "note " + HOSTILE)),
            List.of("note " + HOSTILE), Map.of("series " + HOSTILE, List.of(new double[] {0, 1}, new double[] {1, 2})));
    }

    /** The summary a harness would give for {@code cases}. */
    static RunSummary summary(final List<CaseResult> cases, final BaselineComparison baseline,
                              final boolean complete) {
        final Map<Verdict, Integer> counts = new EnumMap<>(Verdict.class);
        final Map<String, List<CaseResult>> byRule = new TreeMap<>();
        boolean failing = false;
        for (final CaseResult c : cases) {
            counts.merge(c.verdict(), 1, Integer::sum);
            for (final String rule : c.rules()) {
                byRule.computeIfAbsent(rule, r -> new ArrayList<>()).add(c);
            }
            failing |= c.verdict() == Verdict.FAIL;
        }
        final List<RuleVerdict> rules = new ArrayList<>();
        for (final Map.Entry<String, List<CaseResult>> entry : byRule.entrySet()) {
            Verdict worst = Verdict.NOT_APPLICABLE;
            final List<String> ids = new ArrayList<>();
            for (final CaseResult c : entry.getValue()) {
                worst = worst.worst(c.verdict());
                ids.add(c.id());
            }
            final CaseResult first = entry.getValue().get(0);
            rules.add(new RuleVerdict(entry.getKey(), first.level(), first.role(),
                !entry.getKey().equals("MR-ATM-001"), ids, worst));
        }
        return new RunSummary(END, counts, failing ? Overall.NON_CONFORMANT : Overall.CONFORMANT,
            failing ? "1 MUST rule failed: MR-ORD-001" : "every applicable MUST rule passed", rules, baseline,
            complete);
    }

    /** Runs {@code cases} through {@code listener}: started, each case, finished. */
    static void run(final RunListener listener, final List<CaseResult> cases, final BaselineComparison baseline) {
        final RunInfo info = info(cases.size());
        listener.runStarted(info);
        for (int i = 0; i < cases.size(); i++) {
            listener.caseStarted(cases.get(i).id(), i, cases.size());
            listener.caseFinished(cases.get(i));
        }
        listener.runFinished(info, summary(cases, baseline, true));
    }

    static BaselineComparison baseline() {
        return new BaselineComparison("known-failures.yaml", List.of("ORD-004"), List.of("HDR-001"),
            List.of("OLD-001"), List.of("QP-001"));
    }
}
