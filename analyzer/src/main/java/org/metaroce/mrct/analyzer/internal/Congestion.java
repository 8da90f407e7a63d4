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
    String boundText;
}
