package org.metaroce.mrct.harness.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.metaroce.mrct.oracle.Basis;
import org.metaroce.mrct.oracle.DcqcnConstants;
import org.metaroce.mrct.oracle.DcqcnStream;
import org.metaroce.mrct.oracle.Finding;
import org.metaroce.mrct.oracle.ReactionPoint;
import org.metaroce.mrct.wire.Opcode;

/**
 * The two checks of {@code expect_rate} that tell a rate held at the DCQCN target from a cut never made, on hand-built
 * packet sequences judged by the oracle's model: {@link RequesterSteps#pacedAtTarget} (a first window too fast after a
 * cut names MR-CC-017 when a later window fits Rt below the line rate) and {@link RequesterSteps#belowModel} (a mean
 * rate below the smallest Rc, with work left, blames the event that set that Rc). Each is made to fire and kept quiet.
 */
class RequesterStepsRateBlameTest {
    /** 100 Gb/s, alpha 1, g 1/256, both timers 10 ms (no increase step within a test), B 1 GiB, F 5. */
    private static final DcqcnConstants K = new DcqcnConstants(100_000, 1.0 / 256, 1.0, 10_000_000, 10_000_000,
        1L << 30, 5, 40, 400, 10);

    /** {@code count} packets of 1000 bytes (8000 bits) every {@code gap} ns from {@code from}, into both lists. */
    private static void send(final DcqcnStream s, final List<RequesterChecker.Sent> sent, final long from,
                             final long gap, final int count) {
        for (int i = 0; i < count; i++) {
            final int n = sent.size();
            s.onDataSent(from + i * gap, 1_000, n);
            sent.add(new RequesterChecker.Sent(from + i * gap, n, Opcode.RDMA_WRITE_MIDDLE, 1_000, false, 0xC000, n));
        }
    }

    /**
     * A first CNP at 0 followed by 17 packets at the line rate (Rc 50, Rt still 100 Gb/s: a QP that did not cut and one
     * pacing at Rt look alike), then a second CNP at 10 us (Rc 25, Rt 50 Gb/s) and 17 packets every {@code gap} ns.
     */
    private static List<DcqcnStream.WindowFinding> twoCnps(final long gap) {
        final DcqcnStream s = new DcqcnStream(K, 0);
        final List<RequesterChecker.Sent> sent = new ArrayList<>();
        s.onCnpReceived(0);
        send(s, sent, 10, 80, 17);
        s.onCnpReceived(10_000);
        send(s, sent, 10_010, gap, 17);
        return s.checkWindows(0, 1_000_000, 1_000_000, 5, 0, null);
    }

    @Test
    void aQpPacingAtRtAfterTheSecondCutIsBlamedOnMrCc017() {
        final List<DcqcnStream.WindowFinding> found = twoCnps(160);
        // the model itself names the first window a cut's and the one at Rt (50 Gb/s, Rc 25) MR-CC-017
        assertThat(found.get(0).finding().rule()).isEqualTo(ReactionPoint.CUT);
        final DcqcnStream.WindowFinding atTarget = RequesterSteps.pacedAtTarget(found);
        assertThat(atTarget).isNotNull();
        assertThat(atTarget.finding().rule()).isEqualTo("MR-CC-017");
        assertThat(atTarget.point().rule()).isEqualTo(ReactionPoint.CUT);
        assertThat(atTarget.t0()).isGreaterThanOrEqualTo(10_010);
    }

    @Test
    void aQpThatNeverCutsStaysBlamedOnMrCc010() {
        final List<DcqcnStream.WindowFinding> found = twoCnps(80);
        assertThat(found).isNotEmpty().allSatisfy(w -> assertThat(w.finding().rule()).isEqualTo(ReactionPoint.CUT));
        assertThat(RequesterSteps.pacedAtTarget(found)).isNull();
    }

    @Test
    void aFirstFindingThatIsNotACutIsNeverReblamed() {
        // above the line rate (MR-CC-015) first: a later window at Rt does not change what the first one broke
        final ReactionPoint.Point cut = new ReactionPoint.Point(0, 50_000, 50_000, 1, "a CNP", ReactionPoint.CUT);
        final DcqcnStream.WindowFinding lineRate = new DcqcnStream.WindowFinding(new Finding("MR-CC-015", "window rate",
            "at most 105000.0 Mb/s", "133333.3 Mb/s", 1, Basis.FRAME), 0, 960, 0, cut);
        final DcqcnStream.WindowFinding atRt = new DcqcnStream.WindowFinding(new Finding("MR-CC-017", "window rate",
            "at most 26250.0 Mb/s", "50000.0 Mb/s", 20, Basis.FRAME), 10_010, 12_570, 17, cut);
        assertThat(RequesterSteps.pacedAtTarget(List.of(lineRate, atRt))).isNull();
    }

    /** No CNP: Rc is the line rate from RTS at 0; 17 packets every {@code gap} ns from 0, judged over [0, to]. */
    private static ReactionPoint.Point mean(final long gap, final int count, final long to, final boolean workLeft) {
        final DcqcnStream s = new DcqcnStream(K, 0);
        final List<RequesterChecker.Sent> sent = new ArrayList<>();
        send(s, sent, 0, gap, count);
        return RequesterSteps.belowModel(sent, workLeft, 1024, s, 0, to, 0, 0.05);
    }

    @Test
    void aBackloggedQpFarBelowItsRcBlamesTheEventThatSetIt() {
        // 17 packets in 1.3 us, then nothing for 100 us with work left: Rc was the line rate since RTS
        final ReactionPoint.Point below = mean(80, 17, 100_000, true);
        assertThat(below).isNotNull();
        assertThat(below.rule()).isEqualTo("MR-CC-011");
        assertThat(below.rc()).isEqualTo(100_000.0);
    }

    @Test
    void aQpAtItsRcOrWithNothingLeftToSendIsNotBelowTheModel() {
        // 1251 packets every 80 ns: 100 Gb/s over the 100 us
        assertThat(mean(80, 1251, 100_000, true)).isNull();
        // the slow sequence, but the send queue ran dry: a slow mean proves nothing
        assertThat(mean(80, 17, 100_000, false)).isNull();
        // over 1 us the bound is 95,000 bits: 10 packets (80,000) are within two of the largest packets of it (the
        // pacer's phase at either end), 8 (64,000) are not
        assertThat(mean(80, 10, 1_000, true)).isNull();
        assertThat(mean(80, 8, 1_000, true)).isNotNull();
    }
}
