package org.metaroce.mrct.harness.cases;

import java.util.Locale;

/** Which packets of a {@code message} step carry bth.ackreq. */
public enum AckReqMode {
    /** The last packet only (the default). */
    LAST,
    /** Every packet. */
    ALL,
    /** None. */
    NONE,
    /** The packet indices the step lists. */
    INDICES;

    /** The name case files use ({@code last}). */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
