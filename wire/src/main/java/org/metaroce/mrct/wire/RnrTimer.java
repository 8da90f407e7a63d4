package org.metaroce.mrct.wire;

/**
 * The RNR NAK timer code table (AETH value of an RNR NAK): code 0 is 655.36 ms, codes 1..31 run from 0.01 ms to
 * 491.52 ms (IBTA table as used by Linux rdmavt; MetaRoCE v1 Appendix D).
 */
public final class RnrTimer {
    /** Wait per code in nanoseconds. */
    private static final long[] NANOS = {
        655_360_000L, 10_000L, 20_000L, 30_000L, 40_000L, 60_000L, 80_000L, 120_000L, 160_000L, 240_000L, 320_000L,
        480_000L, 640_000L, 960_000L, 1_280_000L, 1_920_000L, 2_560_000L, 3_840_000L, 5_120_000L, 7_680_000L,
        10_240_000L, 15_360_000L, 20_480_000L, 30_720_000L, 40_960_000L, 61_440_000L, 81_920_000L, 122_880_000L,
        163_840_000L, 245_760_000L, 327_680_000L, 491_520_000L,
    };

    private RnrTimer() {
    }

    /** The wait coded by {@code code} (0..31), in nanoseconds. */
    public static long nanos(final int code) {
        return NANOS[code & 0x1F];
    }
}
