package org.metaroce.mrct.cases;

import java.util.Map;
import java.util.Set;

/**
 * The failures of {@link ProfileMatrixTest} not fixed yet: by profile name, the run IDs of the cases that FAIL or ERROR
 * under it (on the reference NIC, seed {@link Suite#SEED}). Each entry is open work of issue 9 and the list only
 * shrinks.
 *
 * <p>One is left, measured when the profile cnp_interval_ns=100000 joined the matrix (2026-12-02):
 * CC-017-burst-recovers-to-line-rate, whose queue after 300 us was 180,176 bytes against below 5,000. The case requires
 * CNP pacing from 10 us to 100 us, but its queue bound, like the convergence cases' outcome, looks sized for 50 us
 * pacing, under which a CNP always comes before the 55 us rate timer (not analysed yet).
 *
 * <p>The entries before it, CC-017-incast-converges and CC-017-long-flow-converges at line_rate_mbps=1000, were not a
 * device's fault: their queue and mean-rate outcome is that of the DCQCN loop in the case's network, sized for the loop
 * as it runs at 100 Gb/s with 50 us CNP pacing, and at 1 Gb/s a CNP comes after the 55 us rate timer (the QP's frames
 * are 11 us apart at the switch port), so an increase step slips in before every cut. The cases now check that outcome
 * only where its premises hold, and the per-window DCQCN model check everywhere (see the cases' comments).
 */
final class KnownProfileFailures {
    static final Map<String, Set<String>> MAP = Map.ofEntries(
        Map.entry("cnp_interval_ns=100000", Set.of("CC-017-burst-recovers-to-line-rate"))
    );

    private KnownProfileFailures() {
    }
}
