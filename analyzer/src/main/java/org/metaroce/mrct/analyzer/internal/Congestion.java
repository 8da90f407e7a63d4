package org.metaroce.mrct.analyzer.internal;

import org.metaroce.mrct.oracle.CutWindow;

/**
 * Per flow, what the congestion checks remember: the last CNP the flow's QP sent (its per-QP pacing scope), and the
 * oracle's measurement of the QP's sending rate after a CNP it received (MR-CC-010).
 */
final class Congestion {
    long lastCnpNs = Long.MIN_VALUE;
    long lastCnpFrame;
    /** CNPs this QP received so far (each may have raised alpha). */
    int cnpsReceived;
    /** A CNP this flow sent before its reaction point's flow was known, or MIN_VALUE. */
    long unclaimedCnpNs = Long.MIN_VALUE;
    long unclaimedCnpFrame;

    /** The measurement in progress after the CNP in {@link #cnpFrame}, or null. */
    CutWindow window;
    long cnpFrame;
    Basis basis;
    /** The line rate and least alpha the cut of {@link #window} was bounded with, told in a finding. */
    double boundLineRateMbps;
    double boundAlpha;

    /**
     * The bound of the cut as a finding tells it (formatted only for a finding: a {@code String.format} per CNP
     * was 2 % of the analysing thread on a capture with CNPs).
     */
    String boundText() {
        return String.format(java.util.Locale.ROOT, "line_rate_mbps %.0f x (1 - alpha/2) with alpha at least %.4f",
            boundLineRateMbps, boundAlpha);
    }
}
