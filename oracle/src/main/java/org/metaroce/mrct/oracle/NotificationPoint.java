package org.metaroce.mrct.oracle;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * One CNP scope of a notification point (section 14.2, Table 14-1), fed in time order with the congestion indications
 * its device received and the CNPs it sent, and the rules over them: an indication while the scope is idle owes one
 * CNP within cnp_delay_max_ns (MR-CC-003 for a request, MR-CC-004 for a read response); the scope then holds until
 * cnp_interval_ns after that CNP, and an indication while it holds owes nothing and may cause none (MR-CC-006); two
 * CNPs of the scope are never closer than cnp_interval_ns (MR-CC-005).
 *
 * <p>An observer whose clock differs from the device's by up to {@code toleranceNs} (0 on virtual time) gives each
 * deadline that much more, accepts a CNP that much closer to the previous one, and lets an indication within the
 * tolerance of the end of the holding time be answered or not: which side of the boundary it fell on cannot be told.
 * The caller must know every congestion indication of the scope (a live run, which marks the packets itself); an
 * observer that sees CE marks only where a network may still set more cannot judge MR-CC-006 and uses
 * {@link #spacing} alone.
 */
public final class NotificationPoint {
    private record Owed(long time, long deadline, long frame, boolean readResponse) {
    }

    private final long intervalNs;
    private final long delayMaxNs;
    private final long toleranceNs;
    private final ArrayDeque<Owed> owed = new ArrayDeque<>();
    private int optional;
    private long lastCnp = Long.MIN_VALUE;

    /**
     * @param intervalNs  cnp_interval_ns
     * @param delayMaxNs  cnp_delay_max_ns
     * @param toleranceNs the observer's timing tolerance (0 on virtual time)
     */
    public NotificationPoint(final long intervalNs, final long delayMaxNs, final long toleranceNs) {
        this.intervalNs = intervalNs;
        this.delayMaxNs = delayMaxNs;
        this.toleranceNs = toleranceNs;
    }

    /**
     * A congestion indication at {@code time} (a CE-marked data packet the device accepted; {@code readResponse} for a
     * read response received by a requester): a CNP is owed unless the scope holds, that is unless a CNP is still owed
     * or the last one is less than cnp_interval_ns old.
     */
    public void onCongestionIndication(final long time, final long frame, final boolean readResponse) {
        onCongestionIndication(time, frame, readResponse, 0);
    }

    /**
     * As {@link #onCongestionIndication(long, long, boolean)}, the CNP it may owe given {@code slackNs} more than
     * cnp_delay_max_ns: an observer away from the device sees the packet before the device does, and gives it the
     * time the packet takes to reach it besides.
     */
    public void onCongestionIndication(final long time, final long frame, final boolean readResponse,
                                       final long slackNs) {
        if (!owed.isEmpty()) {
            // an observer on a live link learns of a CNP only when it reads it: the owed CNP may have left at the
            // owing indication already, and the scope be idle again cnp_interval_ns later, so from then on (within
            // the tolerance) this indication may be answered or not. On virtual time every CNP sent by now is known.
            if (toleranceNs > 0 && time - owed.peekFirst().time() >= intervalNs - toleranceNs) {
                optional++;
            }
            return;
        }
        final long since = lastCnp == Long.MIN_VALUE ? Long.MAX_VALUE : time - lastCnp;
        if (since < intervalNs - toleranceNs) {
            return;
        }
        if (since < intervalNs + toleranceNs) {
            optional++;
            return;
        }
        owed.addLast(new Owed(time, time + delayMaxNs + toleranceNs + slackNs, frame, readResponse));
    }

    /** A CNP of the scope sent at {@code time}: MR-CC-005 when it comes too soon, MR-CC-006 when nothing owed it. */
    public List<Finding> onCnpSent(final long time, final long frame) {
        final List<Finding> out = new ArrayList<>(1);
        final Finding spacing = spacing(lastCnp, time, frame, intervalNs, toleranceNs,
            Basis.configured("cnp_interval_ns " + intervalNs));
        if (spacing != null) {
            out.add(spacing);
        }
        lastCnp = time;
        if (!owed.isEmpty()) {
            owed.pollFirst();
        } else if (optional > 0) {
            optional--;
        } else if (spacing == null) {
            out.add(new Finding("MR-CC-006", "cnp", "none", "a CNP", frame, Basis.configured("every congestion "
                + "indication of the scope: none owed this CNP (the scope was idle without one, or holding)")));
        }
        return out;
    }

    /** The owed CNPs whose deadline passed by {@code now}: one finding each, MR-CC-003 or MR-CC-004. */
    public List<Finding> overdue(final long now) {
        final List<Finding> out = new ArrayList<>(1);
        while (!owed.isEmpty() && owed.peekFirst().deadline() <= now) {
            final Owed o = owed.pollFirst();
            out.add(new Finding(o.readResponse() ? "MR-CC-004" : "MR-CC-003", "cnp", "one CNP within "
                + "cnp_delay_max_ns " + delayMaxNs + " of the congestion indication (the scope was idle)", "none",
                o.frame(), Basis.configured("cnp_delay_max_ns " + delayMaxNs)));
        }
        return out;
    }

    /** CNPs still owed whose deadline is after {@code now}. */
    public int owed() {
        return owed.size();
    }

    /**
     * MR-CC-005 for one CNP at {@code time} after the last of its scope at {@code last} (or {@code Long.MIN_VALUE}),
     * with {@code toleranceNs} of slack; null when they are far enough apart.
     */
    public static Finding spacing(final long last, final long time, final long frame,
                                  final long intervalNs, final long toleranceNs, final Basis basis) {
        if (last == Long.MIN_VALUE || time - last >= intervalNs - toleranceNs) {
            return null;
        }
        return new Finding("MR-CC-005", "time since the previous CNP", "at least " + intervalNs + " ns",
            (time - last) + " ns", frame, basis);
    }
}
