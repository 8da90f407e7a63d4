package org.metaroce.mrct.harness.result;

import java.util.Map;

/**
 * One control-plane call of a case and its outcome, in the order made. With the frames, these are everything the
 * harness learned from the device, so a recorded run can be re-evaluated offline (the replay adapter answers the
 * calls from these records).
 *
 * @param index 0-based position among the case's control calls
 * @param timestampNanos time of the call on the adapter's clock, relative to the case's start
 * @param op the {@code ControlPlane} method ({@code createQp}, {@code readMemory}, ...)
 * @param args its arguments as plain values (numbers, strings, booleans, lists, maps; bytes as hex strings, or as
 *     {@link HexBytes}, whose text is that hex, where the harness's journal recorded them)
 * @param result its result in the same form, or null (void calls and failures)
 * @param error null when the call succeeded, else {@code rejected: ...}, {@code unsupported: ...},
 *     {@code adapter: ...} or {@code unavailable: ...} (a replay that could not answer)
 * @param framesBefore how many frames the case's evidence held when the call was made (the index of the next frame),
 *     which orders calls and frames that share a timestamp; -1 when not known
 */
public record ControlRecord(int index, long timestampNanos, String op, Map<String, Object> args, Object result,
                            String error, int framesBefore) {
    /** A record whose place among the case's frames is not known. */
    public ControlRecord(final int index, final long timestampNanos, final String op, final Map<String, Object> args,
                         final Object result, final String error) {
        this(index, timestampNanos, op, args, result, error, -1);
    }
}
