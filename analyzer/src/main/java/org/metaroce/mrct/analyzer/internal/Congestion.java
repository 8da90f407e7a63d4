package org.metaroce.mrct.analyzer.internal;

/**
 * Per flow, what the congestion checks remember: the last CNP the flow's QP sent (its per-QP pacing scope), and the
 * measurement of the QP's sending rate after a CNP it received (MR-CC-010).
 */
final class Congestion {
    /** Data packets a window rate is measured over: 17 packets, the rate of the first 16 (section 14.4). */
    static final int WINDOW = 17;

    long lastCnpNs = Long.MIN_VALUE;
    long lastCnpFrame;
    /** CNPs this QP received so far (each may have raised alpha). */
    int cnpsReceived;
    /** A CNP this flow sent before its reaction point's flow was known, or MIN_VALUE. */
    long unclaimedCnpNs = Long.MIN_VALUE;
    long unclaimedCnpFrame;

    /** A measurement in progress after a CNP received at {@link #cnpNs}. */
    boolean measuring;
    long cnpNs;
    long cnpFrame;
    long measureFrom;
    long measureUntil;
    double boundMbps;
    /** The QP's dcqcn_byte_counter, and the bytes (frame length + 4) of its data packets since the CNP. */
    long byteCounter;
    long bytesSinceCnp;
    Basis basis;
    String boundText;
    final long[] times = new long[WINDOW];
    long bits;
    int packets;
    long firstFrame;
}
