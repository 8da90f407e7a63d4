package org.metaroce.mrct.oracle.internal.cc;

/** Durations in the words the harness's messages use. */
public final class Durations {
    private Durations() {
    }

    /** A duration in the largest unit that divides it: "3 ms", "250 us", "17 ns". */
    public static String of(final long nanos) {
        if (nanos % 1_000_000 == 0 && nanos != 0) {
            return nanos / 1_000_000 + " ms";
        }
        if (nanos % 1000 == 0 && nanos != 0) {
            return nanos / 1000 + " us";
        }
        return nanos + " ns";
    }
}
