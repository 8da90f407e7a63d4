package org.metaroce.mrct.analyzer.internal;

/**
 * What one QP's own packets say about its PMTU: a set of candidates among the values of Table B-1, narrowed by each
 * packet (a FIRST or MIDDLE carries exactly the PMTU, a LAST or ONLY at most, an offset is a multiple of it). Each
 * side has its own: a requester is judged by what its requests show and a responder by its read responses, so that
 * one side's fault is never blamed on the other.
 */
final class Pmtu {
    int mask = Connection.ALL_PMTUS;
    /** The frame that last narrowed the candidates. */
    long frame;

    /** The PMTU when one candidate is left, else -1. */
    int value() {
        return Integer.bitCount(mask) == 1 ? Connection.PMTUS[Integer.numberOfTrailingZeros(mask)] : -1;
    }

    /** The candidates as text. */
    String describe() {
        return Connection.describe(mask);
    }

    /**
     * Narrows to {@code allowed}; returns false, leaving the candidates as they were, when none would be left.
     */
    boolean narrow(final int allowed, final long byFrame) {
        final int next = mask & allowed;
        if (next == 0) {
            return false;
        }
        if (next != mask) {
            mask = next;
            frame = byFrame;
        }
        return true;
    }

    /** The candidates equal to {@code bytes} (a FIRST or MIDDLE packet's payload). */
    static int equalTo(final long bytes) {
        for (int i = 0; i < Connection.PMTUS.length; i++) {
            if (Connection.PMTUS[i] == bytes) {
                return 1 << i;
            }
        }
        return 0;
    }

    /** The candidates of at least {@code bytes} (a LAST or ONLY packet's payload). */
    static int atLeast(final long bytes) {
        int mask = 0;
        for (int i = 0; i < Connection.PMTUS.length; i++) {
            if (Connection.PMTUS[i] >= bytes) {
                mask |= 1 << i;
            }
        }
        return mask;
    }

    /**
     * The candidates dividing {@code offset}, which is not 0 (an offset is a multiple of the PMTU; every PMTU is a
     * power of two).
     */
    static int dividing(final long offset) {
        int mask = 0;
        for (int i = 0; offset > 0 && i < Connection.PMTUS.length; i++) {
            if ((offset & (Connection.PMTUS[i] - 1)) == 0) {
                mask |= 1 << i;
            }
        }
        return mask;
    }

    /** The candidates for which a read of {@code length} bytes takes {@code packets} PSNs. */
    static int spanning(final long length, final long packets) {
        int mask = 0;
        for (int i = 0; i < Connection.PMTUS.length; i++) {
            if (Connection.span(length, Connection.PMTUS[i]) == packets) {
                mask |= 1 << i;
            }
        }
        return mask;
    }

    /** The smallest and largest span of a read of {@code length} bytes over the candidates: {min, max}. */
    long[] spans(final long length) {
        long lo = Long.MAX_VALUE;
        long hi = 0;
        for (int i = 0; i < Connection.PMTUS.length; i++) {
            if ((mask & (1 << i)) != 0) {
                final long n = Connection.span(length, Connection.PMTUS[i]);
                lo = Math.min(lo, n);
                hi = Math.max(hi, n);
            }
        }
        return new long[] {lo, hi};
    }
}
