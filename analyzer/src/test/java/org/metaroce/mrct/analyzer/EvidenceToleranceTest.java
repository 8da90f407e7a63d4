package org.metaroce.mrct.analyzer;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metaroce.mrct.analyzer.Analyses.Result;
import org.metaroce.mrct.harness.result.Verdict;
import org.metaroce.mrct.wire.FrameBuilder;
import org.metaroce.mrct.wire.Opcode;

/**
 * The evidence of a real-time run records the timing tolerance the live engine judged the device with ({@code
 * tolerance_ns}, {@code tolerance_pct} in the section comment); {@code mrct analyze} of it gives the device the same
 * slack. A resend 300 µs after a 10 µs RNR wait (MR-RTX-012) and a resend 134.4 µs after the acknowledgement that
 * delivered its PSN (MR-RTX-001) fail in evidence without a tolerance (virtual time, or an older mrct) and pass in
 * evidence of a run with 2 ms; a tolerance field that cannot be read stops the analysis of the file, naming the field.
 */
class EvidenceToleranceTest {
    private static final int PSN = 0x334B1E;
    private static final String RUN = "mrct run=2026-12-02T15:15:00Z seed=1 spec=1.0 adapter=socket";
    private static final String REAL_TIME = RUN + " expect_timeout_ns=20000000 tolerance_ns=2000000 tolerance_pct=20";

    @TempDir
    Path dir;

    /** The SEND of message {@code k} (MSN and RSN k) at PSN + k. */
    private static FrameBuilder send(final int k) {
        return FrameBuilder.of(HandBuiltEvidence.FROM_DUT, Opcode.SEND_ONLY).psn(PSN + k).ackReq(true)
            .with("pleth.msn", k).with("pleth.rsn", k).payload(new byte[64]);
    }

    /** The RNR NAK (timer code 1: 10 µs) of the SEND at PSN + 0. */
    private static FrameBuilder rnrNak() {
        return FrameBuilder.of(HandBuiltEvidence.TO_DUT, Opcode.ACKNOWLEDGE).psn(PSN).with("aeth.syndrome", 0x21)
            .with("aeth.msn", 0).with("sacketh.base", PSN);
    }

    /** The acknowledgement of the SENDs at PSN + 0 and PSN + 1. */
    private static FrameBuilder ack() {
        return FrameBuilder.of(HandBuiltEvidence.TO_DUT, Opcode.ACKNOWLEDGE).psn(PSN + 1).with("aeth.msn", 2)
            .with("sacketh.base", PSN + 2);
    }

    /** A SEND, an RNR NAK of timer code 1 (10 µs) 2 µs later, and the SEND again 300 µs after the NAK. */
    private Path lateAfterRnrWait(final String name, final String comment) throws IOException {
        final HandBuiltEvidence evidence = new HandBuiltEvidence("RTX-012-rnr-wait-timing").fromDut(send(0))
            .toDut(rnrNak()).after(300_000).fromDut(send(0));
        return (comment == null ? evidence : evidence.sectionComment(comment)).write(dir.resolve(name + ".pcapng"));
    }

    /**
     * Three SENDs, the acknowledgement of the first two, and the second again 134.4 µs later (not the first: a resend
     * of MSN 0 after later messages is taken for a new incarnation of the QP).
     */
    private Path resendOfDelivered(final String name, final String comment) throws IOException {
        final HandBuiltEvidence evidence = new HandBuiltEvidence("LEG-009-tail-loss").fromDut(send(0))
            .fromDut(send(1)).fromDut(send(2)).toDut(ack()).after(134_400).fromDut(send(1));
        return (comment == null ? evidence : evidence.sectionComment(comment)).write(dir.resolve(name + ".pcapng"));
    }

    private static Verdict verdict(final Result result, final String rule) {
        return result.only(rule).verdict();
    }

    @Test
    void withoutARecordedToleranceTheDeviceIsJudgedWithNoSlack() throws IOException {
        for (final String comment : new String[] {null, RUN, RUN + " tolerance_ns=0 tolerance_pct=0"}) {
            final Result rnr = Analyses.run(lateAfterRnrWait("rnr", comment), Analyses.referenceProfile());
            assertThat(verdict(rnr, "MR-RTX-012")).as(comment + "\n" + rnr.describe()).isEqualTo(Verdict.FAIL);
            final Result resend = Analyses.run(resendOfDelivered("resend", comment), Analyses.referenceProfile());
            assertThat(verdict(resend, "MR-RTX-001")).as(comment + "\n" + resend.describe())
                .isEqualTo(Verdict.FAIL);
        }
    }

    @Test
    void theRunsRecordedToleranceIsTheSlackOfTheTimingChecks() throws IOException {
        final Result rnr = Analyses.run(lateAfterRnrWait("rnr", REAL_TIME), Analyses.referenceProfile());
        assertThat(verdict(rnr, "MR-RTX-012")).as(rnr.describe()).isEqualTo(Verdict.PASS);
        final Result resend = Analyses.run(resendOfDelivered("resend", REAL_TIME), Analyses.referenceProfile());
        assertThat(verdict(resend, "MR-RTX-001")).as(resend.describe()).isEqualTo(Verdict.PASS);
        // the slack is the run's, not any: 100 µs does not cover a resend 300 µs after the NAK
        final Result short100 = Analyses.run(lateAfterRnrWait("rnr-100us", RUN + " tolerance_ns=100000"),
            Analyses.referenceProfile());
        assertThat(verdict(short100, "MR-RTX-012")).as(short100.describe()).isEqualTo(Verdict.FAIL);
    }

    @Test
    void aToleranceThatCannotBeReadNamesTheFileAndTheField() throws IOException {
        for (final String bad : new String[] {"tolerance_ns=2ms", "tolerance_ns=-1", "tolerance_pct=x",
            "tolerance_pct=3000000000", "tolerance_ns="}) {
            final Path file = lateAfterRnrWait("bad", RUN + " " + bad);
            final Result result = Analyses.run(file, Analyses.referenceProfile());
            assertThat(result.outcome().unreadable()).as(bad).isTrue();
            assertThat(result.outcome().files().get(0).name()).isEqualTo(file.toString());
            assertThat(result.outcome().files().get(0).problem()).as(bad)
                .contains("section comment", bad, "timing tolerance");
            assertThat(result.checks()).as(bad).isEmpty();
        }
    }
}
