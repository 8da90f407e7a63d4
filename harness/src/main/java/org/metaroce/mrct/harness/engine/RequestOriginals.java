package org.metaroce.mrct.harness.engine;

import java.util.Arrays;
import org.metaroce.mrct.oracle.Basis;
import org.metaroce.mrct.oracle.Finding;
import org.metaroce.mrct.oracle.RequesterRepeat;
import org.metaroce.mrct.wire.DecodedFrame;
import org.metaroce.mrct.wire.Opcode;

/**
 * The first transmission of each relative PSN of one connection, kept as the oracle's {@link RequesterRepeat}
 * compares a retransmission with it (MR-RTX-006, -017, -018): its opcode, ICRC and the fields a retransmission may
 * change that the ICRC covers. A first transmission with a wrong ICRC (MR-WIRE-014's business) cannot be compared
 * with: only its opcode is kept, and the caller compares a retransmission with the work request instead.
 */
final class RequestOriginals {
    private static final int NONE = Integer.MIN_VALUE;

    private final RequesterRepeat repeat = new RequesterRepeat();
    private int[] evidence = filled(64);
    private int[] icrc = new int[64];
    private long[] variant = new long[64];
    private Opcode[] opcode = new Opcode[64];
    private boolean[] kept = new boolean[64];

    private static int[] filled(final int n) {
        final int[] a = new int[n];
        Arrays.fill(a, NONE);
        return a;
    }

    /** Keeps {@code frame}, the first transmission of relative PSN {@code psn}, found in evidence frame {@code n}. */
    void record(final int psn, final DecodedFrame frame, final int n) {
        if (psn >= evidence.length) {
            final int old = evidence.length;
            final int size = Math.max(old * 2, Integer.highestOneBit(psn) << 1);
            evidence = Arrays.copyOf(evidence, size);
            Arrays.fill(evidence, old, size, NONE);
            icrc = Arrays.copyOf(icrc, size);
            variant = Arrays.copyOf(variant, size);
            opcode = Arrays.copyOf(opcode, size);
            kept = Arrays.copyOf(kept, size);
        }
        evidence[psn] = n;
        opcode[psn] = frame.opcode();
        kept[psn] = RequesterRepeat.comparable(frame);
        icrc[psn] = frame.icrcOnWire();
        variant[psn] = kept[psn] ? RequesterRepeat.variant(frame) : 0;
    }

    /** True when the first transmission of {@code psn} is kept with a right ICRC, so that it can be compared with. */
    boolean known(final int psn) {
        return psn < evidence.length && evidence[psn] != NONE && kept[psn];
    }

    /** The rule a retransmission of {@code psn} breaks when it differs (the oracle's {@link RequesterRepeat#rule}). */
    String rule(final int psn, final int tver) {
        return psn < evidence.length && evidence[psn] != NONE ? RequesterRepeat.rule(opcode[psn], tver)
            : RequesterRepeat.RULE;
    }

    /**
     * The oracle's finding on {@code frame}, a retransmission of {@code psn} (found in evidence frame {@code n}),
     * against the first transmission kept; null when it repeats it, when none is kept or when its own ICRC is wrong.
     */
    Finding check(final int psn, final DecodedFrame frame, final int n, final Basis basis) {
        if (!known(psn) || !RequesterRepeat.comparable(frame)) {
            return null;
        }
        return repeat.check(frame, opcode[psn], icrc[psn], variant[psn],
            evidence[psn] >= 0 ? "frame #" + evidence[psn] : "its first transmission", n, basis);
    }
}
