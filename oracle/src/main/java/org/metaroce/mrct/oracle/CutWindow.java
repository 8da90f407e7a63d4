package org.metaroce.mrct.oracle;

import org.metaroce.mrct.oracle.internal.cc.WindowRates;

/**
 * MR-CC-010 judged where the QP's DCQCN state before a CNP is not known (a capture): after the CNP, and once the
 * QP had time to react, the first window of 16 data packets (section 14.4) may not go faster than the most a conforming
 * QP's Rc can be after the cut, line_rate_mbps x (1 - alpha / 2) with the least alpha it can have
 * ({@link DcqcnConstants#alphaAtLeast}), plus rate_tolerance_pct. The measurement gives up, judging nothing, when an
 * increase step may have raised Rc before the window closed: the rate timer expired (dcqcn_rate_timer_ns after the
 * CNP) or the bytes sent since the CNP reached dcqcn_byte_counter (MR-CC-013). Fed with the QP's data packets in time
 * order; where the whole state is known, {@link DcqcnStream} judges every window instead.
 */
public final class CutWindow {
    private static final int WINDOW = WindowRates.PACKETS + 1;

    private final long cnpNs;
    private final long measureFrom;
    private final long measureUntil;
    private final long byteCounter;
    private final double boundMbps;
    private final long[] times = new long[WINDOW];
    private boolean open = true;
    private long bytesSinceCnp;
    private long bits;
    private int packets;
    private long firstFrame;
    private double rate;
    private boolean measured;

    /**
     * @param cnpNs       when the QP received the CNP
     * @param reactionNs  the time the QP is given to react: packets up to {@code cnpNs + reactionNs} are not measured
     * @param k           the QP's constants, each at the end that excuses the QP most
     * @param alpha       the least alpha the QP can have when the CNP arrives
     */
    public CutWindow(final long cnpNs, final long reactionNs, final DcqcnConstants k, final double alpha) {
        this.cnpNs = cnpNs;
        this.measureFrom = cnpNs + reactionNs;
        this.measureUntil = cnpNs + k.rateTimerNs();
        this.byteCounter = k.byteCounter();
        this.boundMbps = k.lineRateMbps() * (1 - alpha / 2);
        if (boundMbps < 0) {
            throw new IllegalArgumentException("alpha " + alpha + " is above 2");
        }
    }

    /** True while the window is being measured; false once it closed or gave up. */
    public boolean open() {
        return open;
    }

    /** The bound on the window rate before the tolerance, Mb/s. */
    public double boundMbps() {
        return boundMbps;
    }

    /** True once the window closed with a rate measured (17 packets over a time above 0); false when it gave up. */
    public boolean measured() {
        return measured;
    }

    /** The rate of the window once it closed, Mb/s. */
    public double rate() {
        return rate;
    }

    /** The number of the window's first packet once it started. */
    public long firstFrame() {
        return firstFrame;
    }

    /**
     * A data packet of the QP at {@code time}, of {@code wireBytes} (frame length + 4). Returns the finding when this
     * packet closes a window above the bound by more than {@code tolerancePct}, else null.
     */
    public Finding onData(final long time, final long wireBytes, final long frame, final double tolerancePct,
                          final Basis basis) {
        if (!open || time < cnpNs) {
            return null;
        }
        if (time > measureUntil) {
            open = false;
            return null;
        }
        bytesSinceCnp += wireBytes;
        final boolean counterExpired = bytesSinceCnp >= byteCounter;
        if (time <= measureFrom) {
            if (counterExpired) {
                open = false;
            }
            return null;
        }
        if (counterExpired && packets < WINDOW - 1) {
            open = false;
            return null;
        }
        if (packets == 0) {
            firstFrame = frame;
        }
        times[packets] = time;
        if (packets < WINDOW - 1) {
            bits += wireBytes * 8L;
        }
        if (++packets < WINDOW) {
            return null;
        }
        open = false;
        final long span = times[WINDOW - 1] - times[0];
        if (span <= 0) {
            return null;
        }
        rate = bits * 1_000.0 / span;
        measured = true;
        final double limit = boundMbps * (1 + tolerancePct / 100.0);
        if (rate <= limit) {
            return null;
        }
        return new Finding("MR-CC-010", "window rate", "at most " + WindowRates.mbps(limit), WindowRates.mbps(rate),
            frame, basis);
    }
}
