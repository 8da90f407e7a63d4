package org.metaroce.mrct.analyzer.internal;

import java.util.Arrays;
import org.metaroce.mrct.wire.Psn;

/**
 * What a requester stream remembers per PSN, for the most recent PSNs only: a ring indexed by the PSN's low bits
 * covering {@code [lo, hi)}, where {@code hi} is one past the highest PSN sent. It remembers at least {@value #MIN}
 * PSNs ({@link #capacity()}, the window), and the window doubles, up to {@value #MAX} (the largest send window, so
 * every PSN a requester may have in flight fits), when the PSNs still undelivered would not fit; beyond that the oldest
 * PSNs are forgotten and judged no more.
 *
 * <p>The arrays behind the window are allocated on demand: they start at {@value #INITIAL} slots and double when the
 * PSNs in {@code [lo, hi)} would not fit, so a stream that sent a handful of PSNs costs about a kilobyte however large
 * its window (a capture of many short connections holds many rings until its end). What the ring remembers and
 * forgets depends on the window alone, never on how much of it is allocated. Memory is about 90 bytes per allocated
 * slot, so at most 3 MiB per stream.
 *
 * <p>Per PSN: flags ({@link #SENT} and the others), the number of transmissions, the last one's time, frame and
 * signature, a hash of what a retransmission must repeat, when and by which frame it was delivered, and the fields
 * the checks of neighbouring PSNs compare (opcode, MSN, offset, RSN, RETH, payload length).
 */
final class PsnRing {
    static final int MIN = 256;
    static final int MAX = 32768;
    /** Slots allocated when the ring is made. */
    static final int INITIAL = 4;

    /** A transmission of the PSN was seen. */
    static final int SENT = 1;
    /** A transmission a receiver would accept (right ICRC and checksums) was seen. */
    static final int VALID = 2;
    /** The requester knows it needs no further transmission (section 13.1). */
    static final int DELIVERED = 4;
    /** The PSN ends a message for the responder's MSN: LAST, ONLY, the first PSN of a READ, an atomic. */
    static final int MESSAGE_END = 8;
    /** The PSN belongs to the span of a READ REQUEST. */
    static final int READ_SPAN = 16;
    /** The PSN carries an atomic request. */
    static final int ATOMIC = 32;
    /** A READ RESPONSE (or ATOMIC ACKNOWLEDGE) for the PSN was seen. */
    static final int ANSWERED = 64;
    /** An RNR NAK named the PSN: the responder did not record it then. */
    static final int RNR = 0x80;

    /** The PSNs the ring remembers at most (a power of two, {@value #MIN} to {@value #MAX}). */
    private int window = MIN;
    /** The allocated slots less one (a power of two less one, at most {@code window - 1}). */
    int mask;
    byte[] flags;
    byte[] transmissions;
    long[] lastTxNs;
    long[] firstFrame;
    long[] signature;
    /** The ICRC of the first transmission a receiver accepts, to compare retransmissions with. */
    int[] identity;
    /** That transmission's IPv4 ID, UDP source port and AckReq (the oracle's {@code RequesterRepeat.variant}). */
    long[] variant;
    long[] deliveredNs;
    long[] deliveredFrame;
    /** When the first transmission a receiver accepts was seen, or 0. */
    long[] validNs;
    /** The P_Key of that transmission. */
    char[] pkey;
    byte[] opcode;
    int[] msn;
    int[] offset;
    int[] rsn;
    int[] reth;
    char[] payload;

    /** Lowest PSN still remembered. */
    int lo;
    /** One past the highest PSN sent. */
    int hi;
    boolean empty = true;

    PsnRing() {
        allocate(INITIAL);
    }

    private void allocate(final int capacity) {
        mask = capacity - 1;
        flags = new byte[capacity];
        transmissions = new byte[capacity];
        lastTxNs = new long[capacity];
        firstFrame = new long[capacity];
        signature = new long[capacity];
        identity = new int[capacity];
        variant = new long[capacity];
        deliveredNs = new long[capacity];
        deliveredFrame = new long[capacity];
        validNs = new long[capacity];
        pkey = new char[capacity];
        opcode = new byte[capacity];
        msn = new int[capacity];
        offset = new int[capacity];
        rsn = new int[capacity];
        reth = new int[capacity];
        payload = new char[capacity];
    }

    /** The PSNs the ring remembers at most, now. */
    int capacity() {
        return window;
    }

    /** True when the flag (an int constant, {@link #RNR} included) is set in the slot. */
    boolean flag(final int slot, final int flag) {
        return (flags[slot] & flag) != 0;
    }

    /** True when the PSN is remembered. */
    boolean holds(final int psn) {
        return !empty && Psn.distance(lo, psn) < Psn.distance(lo, hi);
    }

    /** The slot of a remembered PSN. */
    int slot(final int psn) {
        return psn & mask;
    }

    boolean has(final int psn, final int flag) {
        return holds(psn) && (flags[psn & mask] & flag) != 0;
    }

    /** Sets a flag (an int constant, {@link #RNR} included) in the slot. */
    void set(final int slot, final int flag) {
        flags[slot] = (byte) (flags[slot] | flag);
    }

    /** Starts the ring at {@code psn}: nothing remembered yet, {@code lo = hi = psn}. */
    void start(final int psn) {
        lo = psn;
        hi = psn;
        empty = false;
    }

    /**
     * Makes {@code [lo, newHi)} the remembered range, keeping {@code keepFrom} (the lowest undelivered PSN) when the
     * ring can grow enough; the PSNs entering the range start blank. Returns the PSNs forgotten at the bottom, from
     * the old {@code lo}, as a count (the caller inspects them before calling, see {@link #wouldForget}).
     */
    void extendTo(final int newHi, final int keepFrom) {
        final int added = Psn.distance(hi, newHi);
        if (added == 0) {
            return;
        }
        final int needed = Psn.distance(Psn.isAfter(keepFrom, lo) && Psn.isBefore(keepFrom, newHi) ? keepFrom : lo,
            newHi);
        if (needed > window && window < MAX) {
            window = Math.min(MAX, Integer.highestOneBit(Math.max(needed, 1) - 1) << 1);
        }
        reserve(Math.min(window, Psn.distance(lo, newHi)));
        final int slots = mask + 1;
        if (added >= slots) {
            Arrays.fill(flags, (byte) 0);
            Arrays.fill(transmissions, (byte) 0);
        } else {
            for (int i = 0; i < added; i++) {
                final int s = (hi + i) & mask;
                flags[s] = 0;
                transmissions[s] = 0;
            }
        }
        hi = newHi;
        if (Psn.distance(lo, hi) > window) {
            lo = Psn.add(hi, -window);
        }
    }

    /**
     * Makes the range start at {@code newLo}, below {@code lo}, when the ring can hold {@code [newLo, hi)} (growing
     * it if needed); the PSNs added start blank. Returns false, changing nothing, when it cannot.
     */
    boolean extendDown(final int newLo) {
        if (empty || !Psn.isBefore(newLo, lo)) {
            return false;
        }
        final int needed = Psn.distance(newLo, hi);
        if (needed > MAX || needed >= Psn.HALF) {
            return false;
        }
        if (needed > window) {
            window = Math.min(MAX, Integer.highestOneBit(needed - 1) << 1);
        }
        reserve(needed);
        final int added = Psn.distance(newLo, lo);
        for (int i = 0; i < added; i++) {
            final int s = (newLo + i) & mask;
            flags[s] = 0;
            transmissions[s] = 0;
        }
        lo = newLo;
        return true;
    }

    /** The number of PSNs at the bottom that {@link #extendTo} would forget. */
    int wouldForget(final int newHi, final int keepFrom) {
        final int span = Psn.distance(lo, newHi);
        final int needed = Psn.distance(Psn.isAfter(keepFrom, lo) && Psn.isBefore(keepFrom, newHi) ? keepFrom : lo,
            newHi);
        int capacity = capacity();
        if (needed > capacity && capacity < MAX) {
            capacity = Math.min(MAX, Integer.highestOneBit(Math.max(needed, 1) - 1) << 1);
        }
        return Math.max(0, Math.min(span - capacity, Psn.distance(lo, hi)));
    }

    /** Allocates slots for {@code span} PSNs (at most the window), keeping what {@code [lo, hi)} holds. */
    private void reserve(final int span) {
        if (span > mask + 1) {
            grow(Math.min(window, Integer.highestOneBit(span - 1) << 1));
        }
    }

    private void grow(final int capacity) {
        final PsnRing old = copyArrays();
        allocate(capacity);
        final int n = Psn.distance(lo, hi);
        for (int i = 0; i < n; i++) {
            final int psn = Psn.add(lo, i);
            final int from = psn & old.mask;
            final int to = psn & mask;
            flags[to] = old.flags[from];
            transmissions[to] = old.transmissions[from];
            lastTxNs[to] = old.lastTxNs[from];
            firstFrame[to] = old.firstFrame[from];
            signature[to] = old.signature[from];
            identity[to] = old.identity[from];
            variant[to] = old.variant[from];
            deliveredNs[to] = old.deliveredNs[from];
            deliveredFrame[to] = old.deliveredFrame[from];
            validNs[to] = old.validNs[from];
            pkey[to] = old.pkey[from];
            opcode[to] = old.opcode[from];
            msn[to] = old.msn[from];
            offset[to] = old.offset[from];
            rsn[to] = old.rsn[from];
            reth[to] = old.reth[from];
            payload[to] = old.payload[from];
        }
    }

    private PsnRing copyArrays() {
        final PsnRing copy = new PsnRing(true);
        copy.mask = mask;
        copy.flags = flags;
        copy.transmissions = transmissions;
        copy.lastTxNs = lastTxNs;
        copy.firstFrame = firstFrame;
        copy.signature = signature;
        copy.identity = identity;
        copy.variant = variant;
        copy.deliveredNs = deliveredNs;
        copy.deliveredFrame = deliveredFrame;
        copy.validNs = validNs;
        copy.pkey = pkey;
        copy.opcode = opcode;
        copy.msn = msn;
        copy.offset = offset;
        copy.rsn = rsn;
        copy.reth = reth;
        copy.payload = payload;
        return copy;
    }

    private PsnRing(final boolean bare) {
        // a holder for the old arrays while growing
    }
}
