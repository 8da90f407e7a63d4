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
import org.metaroce.mrct.wire.Psn;

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
        return dump(index, null);
    }

    /**
     * A frame as text for failure messages, its PSNs ({@code bth.psn}, {@code sacketh.base}) in the same space as the
     * expected frame beside it: relative to {@code psnBase} (the case's start of that PSN space), the absolute value
     * in brackets, as field diffs show them; absolute only when {@code psnBase} is null.
     */
    String dump(final int index, final Integer psnBase) {
        final FrameRecord record = records.get(index);
        final StringBuilder out = new StringBuilder();
        out.append("frame #").append(index).append(' ').append(record.direction()).append(" at ")
            .append(record.timestampNanos()).append(" ns").append(psnBase == null ? "" : ", PSNs relative")
            .append('\n');
        flatten("", record.decoded(), psnBase, out);
        return out.toString();
    }

    @SuppressWarnings("unchecked")
    private static void flatten(final String prefix, final Map<String, Object> map, final Integer psnBase,
                                final StringBuilder out) {
        for (final Map.Entry<String, Object> entry : map.entrySet()) {
            final String name = prefix + entry.getKey();
            if (entry.getValue() instanceof Map<?, ?> child) {
                flatten(name + ".", (Map<String, Object>) child, psnBase, out);
            } else if (psnBase != null && FrameCheck.isPsnField(name) && entry.getValue() instanceof Number raw) {
                out.append("  ").append(name).append(" = ").append(Psn.diff(raw.intValue(), psnBase))
                    .append(" [absolute ").append(raw).append("]\n");
            } else {
                out.append("  ").append(name).append(" = ").append(entry.getValue()).append('\n');
            }
        }
    }
}
