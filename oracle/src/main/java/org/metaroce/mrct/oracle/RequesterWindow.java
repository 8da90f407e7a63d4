package org.metaroce.mrct.oracle;

import org.metaroce.mrct.wire.Psn;

/**
 * MR-REQ-012: a requester sends nothing for the first time at or beyond una + send_window. A READ REQUEST sent at una
 * is allowed whatever its span (the window cannot hold a READ longer than itself otherwise). The caller states una as
 * it knows it (the live engine exactly; {@code mrct analyze} from the answers in the capture) and the window, once for
 * each value it weighs (the QP's attribute, the profile's, the largest a device may declare).
 */
public final class RequesterWindow {
    /** The rule. */
    public static final String RULE = "MR-REQ-012";

    private RequesterWindow() {
    }

    /**
     * The finding on a first transmission at PSN {@code psn} whose span ends at {@code last} (itself but for a READ),
     * or null when it lies within the window, is a READ at una, or una lies after it (an answer already covers it).
     */
    public static Finding check(final int una, final int psn, final int last, final boolean read, final long window,
                                final long frame, final Basis basis) {
        final long distance = Psn.distance(una, last);
        if (distance < window || distance >= Psn.HALF || read && psn == una) {
            return null;
        }
        return new Finding(RULE, "bth.psn - una", "below " + window, Long.toString(distance), frame, basis);
    }
}
