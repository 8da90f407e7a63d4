package org.metaroce.mrct.oracle;

/**
 * The DCQCN constants of one QP (MetaRoCE v1 Appendix B, section 14.3): the profile's declared parameters, or the QP's
 * own attributes where it has them. Rates in Mb/s, times in nanoseconds, bytes counted as section 14.3's A counts them.
 *
 * @param lineRateMbps line_rate_mbps: Rc and Rt on entering RTS, and their ceiling (MR-CC-011, MR-CC-015)
 * @param g            dcqcn_g, the gain of the alpha update
 * @param alphaInit    dcqcn_alpha_init
 * @param alphaTimerNs dcqcn_alpha_timer_ns
 * @param rateTimerNs  dcqcn_rate_timer_ns
 * @param byteCounter  dcqcn_byte_counter (B)
 * @param f            dcqcn_f (F)
 * @param raiMbps      dcqcn_rai_mbps (R_AI)
 * @param rhaiMbps     dcqcn_rhai_mbps (R_HAI)
 * @param minRateMbps  dcqcn_min_rate_mbps, the floor of Rc (MR-CC-015)
 */
public record DcqcnConstants(double lineRateMbps, double g, double alphaInit, long alphaTimerNs, long rateTimerNs,
                             long byteCounter, int f, double raiMbps, double rhaiMbps, double minRateMbps) {
    /** The defaults of Appendix B: 100 Gb/s, g 1/256, alpha 1, 55 us timers, 10 MiB, F 5, 40 and 400 Mb/s, 10 Mb/s. */
    public static final DcqcnConstants DEFAULTS = new DcqcnConstants(100_000, 1.0 / 256, 1.0, 55_000, 55_000,
        10_485_760, 5, 40, 400, 10);

    public DcqcnConstants {
        if (!(lineRateMbps > 0) || !(minRateMbps >= 0) || alphaTimerNs <= 0 || rateTimerNs <= 0 || byteCounter <= 0
            || f < 0 || !(g >= 0 && g <= 1) || !(alphaInit >= 0 && alphaInit <= 1)) {
            throw new IllegalArgumentException("DCQCN constants out of range: line " + lineRateMbps + " Mb/s, g " + g
                + ", alpha_init " + alphaInit + ", timers " + alphaTimerNs + "/" + rateTimerNs + " ns, B "
                + byteCounter + ", F " + f + ", min " + minRateMbps + " Mb/s");
        }
    }

    /** The lateness the specification's timer window allows a timer at each expiry: T / 10 + 2000 ns. */
    public static long timerWindow(final long periodNs) {
        return periodNs / 10 + 2_000;
    }

    /**
     * These constants with both DCQCN timers as late as the timer window allows, plus the observer's own tolerance:
     * each expiry counts from the previous one, so a device may fall that far behind at every period. Later decays
     * leave alpha larger and later increases leave Rc lower, so a model with them bounds Rc from below where the
     * exact model bounds it from above.
     */
    public DcqcnConstants latest(final long toleranceNs) {
        return new DcqcnConstants(lineRateMbps, g, alphaInit, alphaTimerNs + timerWindow(alphaTimerNs) + toleranceNs,
            rateTimerNs + timerWindow(rateTimerNs) + toleranceNs, byteCounter, f, raiMbps, rhaiMbps, minRateMbps);
    }

    /**
     * These constants with an alpha timer that never expires: the model of a QP that never decays alpha (breaking
     * MR-CC-012), against which a window too slow for the conforming model is explained.
     */
    public DcqcnConstants withoutAlphaDecay() {
        return new DcqcnConstants(lineRateMbps, g, alphaInit, Long.MAX_VALUE / 4, rateTimerNs, byteCounter, f, raiMbps,
            rhaiMbps, minRateMbps);
    }

    /**
     * These constants with a rate timer that never expires: the model of a QP whose rate timer makes no increase step
     * (breaking MR-CC-013), against which a window too slow for an Rc an increase step set is explained.
     */
    public DcqcnConstants withoutRateTimerSteps() {
        return new DcqcnConstants(lineRateMbps, g, alphaInit, alphaTimerNs, Long.MAX_VALUE / 4, byteCounter, f,
            raiMbps, rhaiMbps, minRateMbps);
    }

    /**
     * These constants with a byte counter A never reaches: the model of a QP whose byte counter makes no increase step
     * (breaking MR-CC-013).
     */
    public DcqcnConstants withoutByteCounterSteps() {
        return new DcqcnConstants(lineRateMbps, g, alphaInit, alphaTimerNs, rateTimerNs, Long.MAX_VALUE / 4, f,
            raiMbps, rhaiMbps, minRateMbps);
    }

    /** The Rc a CNP leaves from the line rate when alpha is {@code alpha} (MR-CC-010, MR-CC-011): an upper bound. */
    public double cutFromLineRate(final double alpha) {
        return Math.max(minRateMbps, lineRateMbps * (1 - alpha / 2));
    }

    /**
     * The lowest Rc a QP can have at {@code at} (Table 14-3), having received the CNPs at {@code cnpTimes} (those
     * after {@code at} not yet): each CNP at most halves Rc, alpha being at most 1 (MR-CC-010), and Rc never falls
     * below {@code minRateMbps} (MR-CC-015). What a timer that waits for the pacer may be held up by (section 13.4).
     */
    public static double rateFloor(final java.util.List<Long> cnpTimes, final long at, final double lineRateMbps,
                                   final double minRateMbps) {
        int n = 0;
        for (final long time : cnpTimes) {
            if (time <= at) {
                n++;
            }
        }
        return Math.max(minRateMbps, lineRateMbps / Math.pow(2, Math.min(n, 60)));
    }

    /**
     * The least alpha a QP can have when a CNP arrives, having received {@code cnpsBefore} CNPs before it and decayed
     * at most {@code decays} times: each CNP and each decay multiply alpha by at least (1 - g) (MR-CC-010, MR-CC-012).
     */
    public double alphaAtLeast(final int cnpsBefore, final long decays) {
        return alphaInit * Math.pow(1 - g, cnpsBefore) * Math.pow(1 - g, decays);
    }
}
