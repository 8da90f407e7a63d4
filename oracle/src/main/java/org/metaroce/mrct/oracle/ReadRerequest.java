package org.metaroce.mrct.oracle;

import java.util.ArrayList;
import java.util.List;
import org.metaroce.mrct.oracle.internal.Text;
import org.metaroce.mrct.wire.DecodedFrame;
import org.metaroce.mrct.wire.HeaderKind;

/**
 * The READ REQUESTs that recover part of a READ, the exceptions of section 13.7 to MR-RTX-006, each judged against the
 * shape its rule gives: on a TVer 1 QP the re-request of MR-RTX-016 (bth.psn x of the span [p, p + n), pleth.offset
 * (x - p) x PMTU, pleth.first and pleth.last 1, the original pleth.msn and the original RETH); on a TVer 0 QP the
 * request for the rest of the read of MR-LEG-010 (a RETH moved past the bytes already received: reth.va + (x - p) x
 * PMTU, the same rkey, reth.dmalen less (x - p) x PMTU). The live engine states the READ from the work request it
 * posted, {@code mrct analyze} from the READ REQUEST it saw; either may not know the PMTU (0), and then only what
 * does not depend on it is judged (an offset that is a positive multiple of x - p, a RETH moved by as many bytes in va
 * as in dmalen).
 */
public final class ReadRerequest {
    /** The TVer 1 re-request's rule. */
    public static final String RULE = "MR-RTX-016";
    /** The TVer 0 request for the rest of a read. */
    public static final String LEGACY_RULE = "MR-LEG-010";

    /**
     * The READ being recovered, as its first READ REQUEST (or work request) gave it.
     *
     * @param msn    its pleth.msn (TVer 1)
     * @param va     its reth.va
     * @param rkey   its reth.rkey
     * @param length its reth.dmalen
     */
    public record Read(int msn, long va, int rkey, long length) {
    }

    private ReadRerequest() {
    }

    /**
     * MR-RTX-016 on a READ REQUEST at {@code psn}, a PSN of the READ's span whose response was delivered (evidence
     * that the request arrived): the re-request names x, the lowest PSN of the span not delivered ({@code lost}), not
     * an earlier one (a READ recovered from its start although its responses showed the request arrived).
     */
    public static Finding fromDelivered(final int psn, final int lost, final long number, final Basis basis) {
        return new Finding(RULE, "bth.psn", lost + " (the lowest PSN of the READ not delivered)", psn
            + " (delivered)", number, basis);
    }

    /**
     * Every finding on {@code frame}, a READ REQUEST at PSN p + {@code k} of {@code read}, in field order; empty when
     * it has the shape its rule gives. {@code pmtu} 0 when unknown. (At {@code k} 0 the shape is the original
     * request's, which {@link RequesterRepeat} compares with it.)
     */
    public static List<Finding> check(final DecodedFrame frame, final Read read, final int k, final long pmtu,
                                      final long number, final Basis basis) {
        final List<Finding> out = new ArrayList<>(2);
        final long skipped = (long) k * pmtu;
        if (frame.tver() == 0) {
            if (!frame.has(HeaderKind.RETH)) {
                out.add(new Finding(LEGACY_RULE, "reth", "present", "absent", number, basis));
                return out;
            }
            final long va = frame.reth().va();
            final long length = frame.reth().dmaLength();
            if (pmtu > 0) {
                number(out, LEGACY_RULE, "reth.va", read.va() + skipped, va, number, basis);
            } else if (va - read.va() != read.length() - length
                || (k == 0 ? va != read.va() : va - read.va() <= 0 || (va - read.va()) % k != 0)) {
                out.add(new Finding(LEGACY_RULE, "reth.va / reth.dmalen", "moved by the same positive multiple of "
                    + k + " bytes from " + Text.number(read.va()) + " / " + read.length(), Text.number(va) + " / "
                    + length, number, basis));
            }
            number(out, LEGACY_RULE, "reth.rkey", Integer.toUnsignedLong(read.rkey()),
                Integer.toUnsignedLong(frame.reth().rkey()), number, basis);
            if (pmtu > 0) {
                number(out, LEGACY_RULE, "reth.dmalen", read.length() - skipped, length, number, basis);
            }
            return out;
        }
        if (!frame.has(HeaderKind.PLETH) || !frame.has(HeaderKind.RETH)) {
            out.add(new Finding(RULE, frame.has(HeaderKind.PLETH) ? "reth" : "pleth", "present", "absent", number,
                basis));
            return out;
        }
        final long offset = frame.pleth().messageOffset();
        if (pmtu > 0) {
            number(out, RULE, "pleth.offset", skipped, offset, number, basis);
        } else if (k == 0 ? offset != 0 : offset <= 0 || offset % k != 0) {
            out.add(new Finding(RULE, "pleth.offset", k + " x PMTU", Long.toString(offset), number, basis));
        }
        number(out, RULE, "pleth.first", 1, frame.pleth().first() ? 1 : 0, number, basis);
        number(out, RULE, "pleth.last", 1, frame.pleth().last() ? 1 : 0, number, basis);
        number(out, RULE, "pleth.msn", read.msn(), frame.pleth().msn(), number, basis);
        number(out, RULE, "reth.va", read.va(), frame.reth().va(), number, basis);
        number(out, RULE, "reth.rkey", Integer.toUnsignedLong(read.rkey()),
            Integer.toUnsignedLong(frame.reth().rkey()), number, basis);
        number(out, RULE, "reth.dmalen", read.length(), frame.reth().dmaLength(), number, basis);
        return out;
    }

    private static void number(final List<Finding> out, final String rule, final String field, final long expected,
                               final long actual, final long number, final Basis basis) {
        if (expected != actual) {
            out.add(new Finding(rule, field, Text.number(expected), Text.number(actual), number, basis));
        }
    }
}
