package org.metaroce.mrct.harness.engine;

import org.metaroce.mrct.harness.result.FieldDiff;
import org.metaroce.mrct.oracle.Finding;
import org.metaroce.mrct.oracle.RequesterRnr;
import org.metaroce.mrct.oracle.RequesterTimer;

/**
 * How the live requester checker's timing failures read: the bound the rule sets (nominal) and, on a real-time adapter,
 * the bound the device was given (nominal plus the run's tolerance), as responder windows read ("no frame arrived
 * within 8 us (1008 us with the run's tolerance of 1 ms)"). Times count from the case's start. On virtual time the
 * tolerance is 0 and only the nominal bound is given.
 */
final class RequesterDeadlines {
    private final long origin;
    private final long tolerance;

    RequesterDeadlines(final long origin, final long toleranceNs) {
        this.origin = origin;
        this.tolerance = Math.max(0, toleranceNs);
    }

    /** A moment of the case, from its start. */
    String at(final long time) {
        return CaseRun.nanos(time - origin);
    }

    /** A latest moment: "by 35202 us (37202 us with the run's tolerance of 2 ms)". */
    String by(final long nominal) {
        return "by " + at(nominal) + widened(nominal + tolerance);
    }

    /** An earliest moment: "at least 32 ms (30 ms with the run's tolerance of 2 ms)". */
    String atLeast(final long nominal) {
        return "at least " + earliest(nominal);
    }

    /** An earliest moment without the words: "32 ms (30 ms with the run's tolerance of 2 ms)". */
    String earliest(final long nominal) {
        return at(nominal) + widened(nominal - tolerance);
    }

    private String widened(final long effective) {
        return tolerance == 0 ? "" : " (" + at(effective) + " with the run's tolerance of " + CaseRun.nanos(tolerance)
            + ")";
    }

    /** MR-RTX-012 and friends: no request came by the end of the RNR wait's window. */
    StepFailure rnrOverdue(final Finding overdue, final RequesterRnr rnr, final long now, final int evidence) {
        return RequesterFailure.failure(overdue.rule(), evidence, "no request was sent at the end of the RNR wait "
            + "that began at " + at(rnr.started()) + " and ended at " + at(rnr.until()) + ": due " + by(rnr.latest(0)),
            new FieldDiff(overdue.field(), "a request " + by(rnr.latest(0)), "none by " + at(now)));
    }

    /**
     * The retransmission timer expired without una's resend (or, with nothing in flight, without the acknowledgement
     * probe of PSN {@code awaited}): {@code due} is the latest moment with the tolerance, as the checker judged it.
     */
    StepFailure timeout(final RequesterTimer timer, final int una, final int awaited, final boolean probe,
                        final long due, final long now, final int nLow, final int evidence) {
        final long nominal = due - tolerance;
        if (probe) {
            return RequesterFailure.failure(RequesterTimer.PROBE_RULE, evidence, "no PSN is in flight and the "
                + "acknowledgement of PSN " + awaited + " is awaited, but no acknowledgement probe was sent when the "
                + "timer started at " + at(timer.started()) + " for rto_low_ns expired: due " + by(nominal),
                new FieldDiff("acknowledgement probe (PSN " + awaited + ")", by(nominal), "none by " + at(now)));
        }
        return RequesterFailure.failure(timer.lateRule(), evidence, "una (PSN " + una + ") was not sent again when "
            + "the retransmission timer started at " + at(timer.started()) + " for " + CaseRun.nanos(timer.duration())
            + " (" + (timer.low() ? "rto_low_ns: at most n_low = " : "rto_high_ns: more than n_low = ") + nLow
            + " PSNs in flight) expired: due " + by(nominal), new FieldDiff("retransmission of PSN " + una,
                by(nominal), "none by " + at(now)));
    }
}
