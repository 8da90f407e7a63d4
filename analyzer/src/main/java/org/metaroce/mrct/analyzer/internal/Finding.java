package org.metaroce.mrct.analyzer.internal;

import java.util.List;
import org.metaroce.mrct.harness.result.FieldDiff;

/**
 * One thing a check found: a violation of its rule, or a reason it cannot decide. It names the frame that shows it
 * (its number in the capture) and carries copies of that frame and of the frames it relates to, first the offending
 * one.
 *
 * @param check     the check
 * @param violation true for a violation, false for a reason to be inconclusive
 * @param frame     the number of the offending frame in its capture, 0 when none (a frame that never came)
 * @param message   one sentence a firmware engineer can act on
 * @param diffs     the fields that did not hold, expected against actual
 * @param frames    copies of the offending frame and the related ones, in that order; may be empty
 */
record Finding(Check check, boolean violation, long frame, String message, List<FieldDiff> diffs,
               List<FrameSnapshot> frames) {
    Finding {
        diffs = List.copyOf(diffs);
        frames = List.copyOf(frames);
    }
}
