package org.metaroce.mrct.harness.engine;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.metaroce.mrct.harness.result.Direction;
import org.metaroce.mrct.harness.result.FrameRecord;
import org.metaroce.mrct.wire.DecodedFrame;
import org.metaroce.mrct.wire.FrameDecoder;
import org.metaroce.mrct.wire.FrameDescription;

/** The frames of one case, in order, as the result and the reports keep them. */
final class Evidence {
    private final List<FrameRecord> records = new ArrayList<>();
    private final FrameDecoder decoder = new FrameDecoder();
    private final long start;

    Evidence(final long start) {
        this.start = start;
    }

    /** Records a frame and returns its index. */
    int add(final Direction direction, final long time, final byte[] bytes, final int step, final String note) {
        final DecodedFrame frame = decoder.decode(ByteBuffer.wrap(bytes), 0, bytes.length);
        final Map<String, Object> decoded = new LinkedHashMap<>();
        decoded.put("roce", frame.status() != org.metaroce.mrct.wire.DecodeStatus.NOT_ROCE);
        if (frame.status() != org.metaroce.mrct.wire.DecodeStatus.NOT_ROCE) {
            FrameDescription.describeHeaders(frame, decoded);
        }
        final int index = records.size();
        records.add(new FrameRecord(index, direction, time - start, bytes, step, note, decoded));
        return index;
    }

    /** Changes the note (and step) of a frame already recorded. */
    void note(final int index, final int step, final String note) {
        final FrameRecord old = records.get(index);
        records.set(index, new FrameRecord(old.index(), old.direction(), old.timestampNanos(), old.bytes(), step, note,
            old.decoded()));
    }

    List<FrameRecord> records() {
        return records;
    }

    /** A frame as text for failure messages: one {@code key=value} line per field. */
    String dump(final int index) {
        final FrameRecord record = records.get(index);
        final StringBuilder out = new StringBuilder();
        out.append("frame #").append(index).append(' ').append(record.direction()).append(" at ")
            .append(record.timestampNanos()).append(" ns\n");
        flatten("", record.decoded(), out);
        return out.toString();
    }

    @SuppressWarnings("unchecked")
    private static void flatten(final String prefix, final Map<String, Object> map, final StringBuilder out) {
        for (final Map.Entry<String, Object> entry : map.entrySet()) {
            if (entry.getValue() instanceof Map<?, ?> child) {
                flatten(prefix + entry.getKey() + ".", (Map<String, Object>) child, out);
            } else {
                out.append("  ").append(prefix).append(entry.getKey()).append(" = ").append(entry.getValue())
                    .append('\n');
            }
        }
    }
}
