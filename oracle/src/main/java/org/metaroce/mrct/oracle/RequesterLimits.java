package org.metaroce.mrct.oracle;

/**
 * MR-REQ-013 (at most max_rd_atomic READ and atomic WQEs outstanding, sent and not completed) and MR-REQ-014 (a fenced
 * WQE starts only once every earlier READ and atomic WQE has completed), judged when a WQE's first packet is sent for
 * the first time. The caller counts what it knows outstanding: the live engine the posted READ and atomic WQEs whose
 * answers have not all arrived (a WQE whose answers arrived may have completed: the device gets that benefit); a judge
 * that sees only the wire (a capture) cannot see the fence flag, nor the QP's max_rd_atomic unless it is stated.
 */
public final class RequesterLimits {
    /** At most max_rd_atomic READ and atomic WQEs outstanding. */
    public static final String OUTSTANDING_RULE = "MR-REQ-013";
    /** The fence. */
    public static final String FENCE_RULE = "MR-REQ-014";

    private RequesterLimits() {
    }

    /**
     * The finding when a READ or atomic WQE is started with {@code earlier} earlier READ and atomic WQEs outstanding
     * and that makes more than {@code maxRdAtomic}; null otherwise.
     */
    public static Finding outstanding(final int earlier, final int maxRdAtomic, final long frame, final Basis basis) {
        if (earlier + 1 <= maxRdAtomic) {
            return null;
        }
        return new Finding(OUTSTANDING_RULE, "outstanding READ/atomic WQEs", "at most max_rd_atomic = " + maxRdAtomic,
            Integer.toString(earlier + 1), frame, basis);
    }

    /**
     * The finding when a WQE posted with the fence flag is started while {@code pending} (an earlier READ or atomic
     * WQE, in words) has not completed; null when {@code pending} is null.
     */
    public static Finding fence(final String pending, final long frame, final Basis basis) {
        return pending == null ? null : new Finding(FENCE_RULE, "fence", "every earlier READ and atomic complete",
            pending + " still outstanding", frame, basis);
    }
}
