package org.metaroce.mrct.harness.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.metaroce.mrct.harness.result.Direction;
import org.metaroce.mrct.harness.result.FrameRecord;
import org.metaroce.mrct.harness.result.FrameRecords;
import org.metaroce.mrct.wire.Psn;

/**
 * The frames of one case, in order, as the result and the reports keep them. Recording a frame only keeps its bytes and
 * what the engine knows of it; the decoded description the reports show is made when a record's {@code decoded} map
 * is first read ({@link LazyDescription}: a pure function of the bytes, so the records are the same as if it were made
 * at once), which for most frames is never (evidence.pcapng keeps the bytes): on a real-time adapter a frame is
 * recorded on the path that sends or receives it, where every microsecond counts against the case's timeline.
 */
final class Evidence {
    /** A frame as recorded; its description is made when first asked for. */
    private static final class Entry {
        final Direction direction;
        final long time;
        final byte[] bytes;
        int step;
        String note;
        /** The decoded description, once made (a pure function of the bytes). */
        Map<String, Object> decoded;

        Entry(final Direction direction, final long time, final byte[] bytes, final int step, final String note) {
            this.direction = direction;
            this.time = time;
            this.bytes = bytes;
            this.step = step;
            this.note = note;
        }
    }

    private final List<Entry> entries = new ArrayList<>();
    private final long start;

    Evidence(final long start) {
        this.start = start;
    }

    /** Records a frame and returns its index. */
    int add(final Direction direction, final long time, final byte[] bytes, final int step, final String note) {
        entries.add(new Entry(direction, time, bytes, step, note));
        return entries.size() - 1;
    }

    /** Changes the note (and step) of a frame already recorded. */
    void note(final int index, final int step, final String note) {
        final Entry entry = entries.get(index);
        entry.step = step;
        entry.note = note;
    }

    /** How many frames are recorded. */
    int size() {
        return entries.size();
    }

    /** {@code time} on the device's clock as the records give it: since the case's start. */
    long sinceStart(final long time) {
        return time - start;
    }

    /**
     * The records, in order: a snapshot of the frames, steps and notes as they are now, whose descriptions are made
     * when a record is first read ({@link FrameRecords}), on whichever thread reads it.
     */
    List<FrameRecord> records() {
        final Entry[] frames = entries.toArray(new Entry[0]);
        final int[] steps = new int[frames.length];
        final String[] notes = new String[frames.length];
        for (int i = 0; i < frames.length; i++) {
            steps[i] = frames[i].step;
            notes[i] = frames[i].note;
        }
        return new FrameRecords(frames.length, i -> record(i, frames[i], steps[i], notes[i]));
    }

    private FrameRecord record(final int index, final Entry entry, final int step, final String note) {
        return new FrameRecord(index, entry.direction, entry.time - start, entry.bytes, step, note, decoded(entry));
    }

    /** The entry's description: one map per frame, which describes the frame when first read. */
    private synchronized Map<String, Object> decoded(final Entry entry) {
        if (entry.decoded == null) {
            entry.decoded = new LazyDescription(entry.bytes);
        }
        return entry.decoded;
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
        final Entry entry = entries.get(index);
        final FrameRecord record = record(index, entry, entry.step, entry.note);
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
