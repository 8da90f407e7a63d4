package org.metaroce.mrct.analyzer;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metaroce.mrct.harness.result.CaseResult;
import org.metaroce.mrct.harness.result.Verdict;
import org.metaroce.mrct.wire.FrameBuilder;
import org.metaroce.mrct.wire.Opcode;

/**
 * The notification point's rules as the analyzer judges them through the oracle's {@code NotificationPoint}, on
 * hand-built evidence of a device (the reference profile: per-qp scope, cnp_interval_ns 50 us, cnp_delay_max_ns
 * 10 us; frames 2 us apart): a CE-marked request or read response the device receives in an idle scope owes one CNP
 * (MR-CC-003, MR-CC-004), an indication while the scope holds owes none, and two CNPs are never closer than the
 * interval (MR-CC-005), and a CNP no indication owed is never sent (MR-CC-006: judged on evidence, captured at the
 * device, which sees every CE mark it received). Each fires on a device that breaks it and stays quiet on one that does
 * not.
 */
class CnpEvidenceTest {
    private static final int PSN = 0x001000;

    @TempDir
    Path dir;

    private static FrameBuilder write(final int k, final boolean ce) {
        return FrameBuilder.of(HandBuiltEvidence.TO_DUT, Opcode.RDMA_WRITE_ONLY).psn(PSN + k).ackReq(true)
            .ecn(ce ? 3 : 2).with("pleth.msn", k).with("reth.va", 0x1000L).with("reth.rkey", 0x77)
            .with("reth.dmalen", 64).payload(new byte[64]);
    }

    private static FrameBuilder ack(final int k) {
        return FrameBuilder.of(HandBuiltEvidence.FROM_DUT, Opcode.ACKNOWLEDGE).psn(PSN + k)
            .with("sacketh.base", PSN + k + 1).with("aeth.msn", k + 1);
    }

    private static FrameBuilder cnp() {
        return FrameBuilder.of(HandBuiltEvidence.FROM_DUT, Opcode.CNP);
    }

    /**
     * The device's QP receives WRITEs at PSN + 0 to 9, 2 us apart, acknowledging each; those whose number is in
     * {@code ce} arrive CE-marked, and the device sends a CNP after the ACKs whose number is in {@code cnpAfter}.
     */
    private Path writes(final String name, final List<Integer> ce, final List<Integer> cnpAfter) throws IOException {
        return writes(name, 10, ce, cnpAfter);
    }

    /** As {@link #writes(String, List, List)}, with {@code n} WRITEs. */
    private Path writes(final String name, final int n, final List<Integer> ce, final List<Integer> cnpAfter)
        throws IOException {
        final HandBuiltEvidence evidence = new HandBuiltEvidence("CC-" + name);
        for (int k = 0; k < n; k++) {
            evidence.toDut(write(k, ce.contains(k))).fromDut(ack(k));
            if (cnpAfter.contains(k)) {
                evidence.fromDut(cnp());
            }
        }
        return evidence.createQp("\"tver\":1,\"pmtu\":1024").write(dir.resolve(name + ".pcapng"));
    }

    @Test
    void aCeMarkedRequestInAnIdleScopeIsAnsweredByOneCnp() throws IOException {
        // the CE mark on WRITE 6 comes while the scope holds (the CNP after WRITE 0 is 13 us old): it owes nothing
        final Analyses.Result result = Analyses.run(writes("answered", List.of(0, 6), List.of(0)), Analyses.referenceProfile());
        final CaseResult owed = result.only("MR-CC-003");
        assertThat(owed.verdict()).as(result.describe()).isEqualTo(Verdict.PASS);
        assertThat(owed.reason()).matches("[1-9][0-9]* CE-marked requests checked, no violation");
        assertThat(result.only("MR-CC-005").verdict()).isEqualTo(Verdict.PASS);
    }

    @Test
    void noCnpForACeMarkedRequestBreaksMrCc003Once() throws IOException {
        // WRITE 1's mark comes while WRITE 0's CNP is owed: the scope holds, and one CNP is missing, not two
        final Analyses.Result result = Analyses.run(writes("unanswered", List.of(0, 1), List.of()), Analyses.referenceProfile());
        final CaseResult owed = result.only("MR-CC-003");
        assertThat(owed.verdict()).isEqualTo(Verdict.FAIL);
        assertThat(owed.reason()).startsWith("1 violation, first at frame 1").contains("no CNP to QP 0x000100",
            "CE-marked request in frame 1");
    }

    @Test
    void twoCnpsInsideTheIntervalBreakMrCc005() throws IOException {
        final Analyses.Result result = Analyses.run(writes("twice", List.of(0), List.of(0, 2)), Analyses.referenceProfile());
        final CaseResult spacing = result.only("MR-CC-005");
        assertThat(spacing.verdict()).isEqualTo(Verdict.FAIL);
        assertThat(spacing.reason()).contains("less than cnp_interval_ns 50000");
    }

    /** The device's QP reads from the harness's, whose READ RESPONSE ONLY arrives CE-marked if {@code ce}. */
    private Path read(final String name, final boolean ce, final boolean cnp) throws IOException {
        final HandBuiltEvidence evidence = new HandBuiltEvidence("CC-004-" + name)
            .fromDut(FrameBuilder.of(HandBuiltEvidence.FROM_DUT, Opcode.RDMA_READ_REQUEST).psn(PSN).ackReq(true)
                .with("reth.va", 0x2000L).with("reth.rkey", 0x99).with("reth.dmalen", 256))
            .toDut(FrameBuilder.of(HandBuiltEvidence.TO_DUT, Opcode.RDMA_READ_RESPONSE_ONLY).psn(PSN).ecn(ce ? 3 : 2)
                .with("aeth.msn", 1).payload(new byte[256]));
        if (cnp) {
            evidence.fromDut(cnp());
        }
        for (int k = 1; k < 8; k++) {
            evidence.fromDut(FrameBuilder.of(HandBuiltEvidence.FROM_DUT, Opcode.RDMA_WRITE_ONLY).psn(PSN + k)
                .ackReq(true).with("pleth.msn", k).with("reth.va", 0x3000L).with("reth.rkey", 0x99)
                .with("reth.dmalen", 64).payload(new byte[64]));
        }
        return evidence.createQp("\"tver\":1,\"pmtu\":1024").write(dir.resolve(name + ".pcapng"));
    }

    @Test
    void aCeMarkedReadResponseOwesACnpToo() throws IOException {
        final Analyses.Result answered = Analyses.run(read("answered", true, true), Analyses.referenceProfile());
        assertThat(answered.only("MR-CC-004").verdict()).as(answered.describe()).isEqualTo(Verdict.PASS);
        final Analyses.Result silent = Analyses.run(read("silent", true, false), Analyses.referenceProfile());
        final CaseResult owed = silent.only("MR-CC-004");
        assertThat(owed.verdict()).as(silent.describe()).isEqualTo(Verdict.FAIL);
        assertThat(owed.reason()).contains("CE-marked read response in frame 2");
    }

    @Test
    void aCnpThatNoIndicationOwedBreaksMrCc006() throws IOException {
        final Analyses.Result result = Analyses.run(writes("unowed", List.of(), List.of(3)),
            Analyses.referenceProfile());
        final CaseResult unowed = result.only("MR-CC-006");
        assertThat(unowed.verdict()).as(result.describe()).isEqualTo(Verdict.FAIL);
        assertThat(unowed.reason()).startsWith("1 violation, first at frame 9").contains("answers no congestion "
            + "indication");
        // the CNP answering a CE mark in an idle scope is owed, and the mark while it holds owes none
        final Analyses.Result answered = Analyses.run(writes("owed", List.of(0, 6), List.of(0)),
            Analyses.referenceProfile());
        assertThat(answered.only("MR-CC-006").verdict()).as(answered.describe()).isEqualTo(Verdict.PASS);
        assertThat(answered.only("MR-CC-006").reason()).matches("1 CNPs? checked, no violation");
    }

    @Test
    void aCeMarkWhileTheScopeHoldsOwesNoCnpEvenWhenTheHoldingTimeEnds() throws IOException {
        // 40 WRITEs 4 us apart: the CNP after WRITE 0 (4 us) holds the scope until 54 us; WRITE 10's mark (42 us)
        // comes while it holds and owes nothing, so a CNP at 126 us (after WRITE 30) answers nothing
        final Analyses.Result holding = Analyses.run(writes("holding", 40, List.of(0, 10), List.of(0, 30)),
            Analyses.referenceProfile());
        final CaseResult unowed = holding.only("MR-CC-006");
        assertThat(unowed.verdict()).as(holding.describe()).isEqualTo(Verdict.FAIL);
        assertThat(holding.only("MR-CC-005").verdict()).isEqualTo(Verdict.PASS);
        // WRITE 30's mark (122 us) comes with the scope idle again: the same CNP is owed
        final Analyses.Result idle = Analyses.run(writes("idle", 40, List.of(0, 30), List.of(0, 30)),
            Analyses.referenceProfile());
        assertThat(idle.only("MR-CC-006").verdict()).as(idle.describe()).isEqualTo(Verdict.PASS);
        assertThat(idle.only("MR-CC-003").verdict()).isEqualTo(Verdict.PASS);
    }

    @Test
    void withoutAProfileAnUnowedCnpIsNoViolation() throws IOException {
        // the longest holding time and widest scope of the parameters' ranges stand in for the device's: not proof
        final Analyses.Result result = Analyses.run(writes("undeclared", List.of(), List.of(3)));
        assertThat(result.only("MR-CC-006").verdict()).as(result.describe()).isNotEqualTo(Verdict.FAIL)
            .isNotEqualTo(Verdict.PASS);
    }
}
