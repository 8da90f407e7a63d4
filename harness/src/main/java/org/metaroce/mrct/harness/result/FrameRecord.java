package org.metaroce.mrct.harness.result;

import java.util.Map;

/**
 * One frame of a case's evidence.
 *
 * @param index 0-based position in the case's evidence
 * @param direction to or from the device
 * @param timestampNanos time on the adapter's clock, relative to the case's start
 * @param bytes the whole Ethernet frame
 * @param step 0-based index of the step that sent or consumed it, or -1 when no step did (unexpected or left over)
 * @param note what the step made of it ("sent", "matched", "unexpected", "ignored", "left over")
 * @param decoded the frame's fields as {@code mrct decode} shows them (nested maps; see
 *     {@code org.metaroce.mrct.wire.FrameDescription})
 */
public record FrameRecord(int index, Direction direction, long timestampNanos, byte[] bytes, int step, String note,
                          Map<String, Object> decoded) {
}
