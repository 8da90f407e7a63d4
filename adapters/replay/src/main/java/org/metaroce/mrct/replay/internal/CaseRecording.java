package org.metaroce.mrct.replay.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.metaroce.mrct.harness.result.EvidenceComment;
import org.metaroce.mrct.harness.result.MemoryDigest;
import org.metaroce.mrct.wire.capture.CaptureReader;

/**
 * Everything a recording holds of one case: its frames in the order the harness handled them (their evidence index)
 * and its control-plane calls in the order made, or why the case cannot be answered (a frame or call missing from the
 * sequence, a record that cannot be read, damage).
 */
public final class CaseRecording {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final String id;
    private final List<RecordedFrame> frames;
    private final List<RecordedCall> calls;
    private final String problem;

    private CaseRecording(final String id, final List<RecordedFrame> frames, final List<RecordedCall> calls,
                          final String problem) {
        this.id = id;
        this.frames = frames;
        this.calls = calls;
        this.problem = problem;
    }

    /** A case the recording cannot answer, and why. */
    public static CaseRecording unanswerable(final String id, final String problem) {
        return new CaseRecording(id, List.of(), List.of(), problem);
    }

    public String id() {
        return id;
    }

    /** The frames, by evidence index. */
    public List<RecordedFrame> frames() {
        return frames;
    }

    /** The control-plane calls, by index. */
    public List<RecordedCall> calls() {
        return calls;
    }

    /** Null when the case can be replayed, else why not. */
    public String problem() {
        return problem;
    }

    /** Reads the packets of {@code span} through {@code cursor}. */
    public static CaseRecording read(final RecordingCursor cursor, final CaseSpan span) {
        if (span.problem() != null) {
            return unanswerable(span.id(), span.problem());
        }
        final List<RecordedFrame> frames = new ArrayList<>();
        final List<RecordedCall> calls = new ArrayList<>();
        final Parts parts = new Parts();
        try {
            final CaptureReader reader = cursor.at(span.first());
            if (reader == null) {
                return unanswerable(span.id(), "the file ends before the case's first packet (" + span.first() + ")");
            }
            final long base = reader.timestampNanos();
            for (long i = 0; i < span.count(); i++) {
                if (i > 0 && !cursor.next()) {
                    return unanswerable(span.id(), "the file ends inside the case's packets");
                }
                final String problem = packet(reader, base, frames, calls, parts);
                if (problem != null) {
                    return unanswerable(span.id(), "packet " + reader.recordNumber() + " of the file: " + problem);
                }
            }
        } catch (IOException e) {
            return unanswerable(span.id(), "its packets cannot be read: " + e.getMessage());
        }
        frames.sort(Comparator.comparingInt(RecordedFrame::index));
        calls.sort(Comparator.comparingInt(RecordedCall::index));
        String problem = parts.unfinished();
        if (problem == null) {
            problem = parts.restoreMemory(calls);
        }
        if (problem == null) {
            problem = sequence("frame", frames.stream().map(RecordedFrame::index).toList());
        }
        if (problem == null) {
            problem = sequence("control call", calls.stream().map(RecordedCall::index).toList());
        }
        return new CaseRecording(span.id(), List.copyOf(frames), List.copyOf(calls), problem);
    }

    /** Null when {@code indices} (sorted) are 0, 1, 2, ..., else which one is missing or doubled. */
    private static String sequence(final String what, final List<Integer> indices) {
        for (int i = 0; i < indices.size(); i++) {
            final int index = indices.get(i);
            if (index == i) {
                continue;
            }
            if (index < i) {
                return "the recording holds " + what + " #" + index + " of the case twice";
            }
            return "the recording lacks " + what + " #" + i + " of the case (its " + what + "s go from #"
                + (i - 1) + " to #" + index + "): it was removed or lost, so the case cannot be replayed";
        }
        return null;
    }

    private static String packet(final CaptureReader reader, final long base, final List<RecordedFrame> frames,
                                 final List<RecordedCall> calls, final Parts parts) {
        final Map<String, String> fields;
        try {
            fields = EvidenceComment.parse(reader.comment());
        } catch (IllegalArgumentException | NullPointerException e) {
            return "its comment cannot be read: " + e.getMessage();
        }
        final String dir = fields.get("dir");
        final byte[] bytes = new byte[reader.capturedLength()];
        final ByteBuffer buffer = reader.buffer();
        buffer.get(reader.offset(), bytes);
        if (reader.linkType() == EvidenceIndex.LINKTYPE_MEMORY || "memory".equals(dir)) {
            return parts.memory(fields, bytes);
        }
        if ("control".equals(dir) || reader.linkType() == EvidenceIndex.LINKTYPE_CONTROL) {
            if (fields.containsKey("part")) {
                final String problem = parts.record(fields, bytes);
                final byte[] whole = parts.completedRecord();
                return problem != null || whole == null ? problem : call(whole, calls);
            }
            return call(bytes, calls);
        }
        if (!"to-dut".equals(dir) && !"from-dut".equals(dir)) {
            return "its comment gives no direction (dir=" + dir + ")";
        }
        final int index;
        final long time;
        try {
            index = Integer.parseInt(fields.getOrDefault("index", ""));
            // files of an mrct before time= carry capture times only: relative to the case's first packet
            time = fields.containsKey("time") ? Long.parseLong(fields.get("time")) : reader.timestampNanos() - base;
        } catch (NumberFormatException e) {
            return "its comment has no valid index= or time=: " + reader.comment();
        }
        if (reader.originalLength() != reader.capturedLength()) {
            return "frame #" + index + " was recorded cut short (" + reader.capturedLength() + " of "
                + reader.originalLength() + " bytes)";
        }
        frames.add(new RecordedFrame(index, "to-dut".equals(dir), time, bytes, fields.getOrDefault("note", "")));
        return null;
    }

    /**
     * The packets of a case that belong together (reports/README.md, evidence.pcapng): a control record split into
     * parts ({@code part=k/n} in their comments, consecutive), and the bytes of large {@code readMemory} answers, which
     * follow their record in parts of their own and replace the record's digest once checked against it.
     */
    private static final class Parts {
        private final Map<Integer, ByteArrayOutputStream> memory = new HashMap<>();
        private final Map<Integer, Integer> memoryParts = new HashMap<>();
        private ByteArrayOutputStream record;
        private int recordIndex = -1;
        private int recordPart;
        private int recordParts;
        private byte[] completed;

        /** A part of a split control record; null when it is the expected next part. */
        String record(final Map<String, String> fields, final byte[] bytes) {
            completed = null;
            final int[] part = part(fields);
            final int index = index(fields);
            if (part == null || index < 0) {
                return "a control record part without a valid index= and part=k/n: " + fields;
            }
            if (part[0] == 1) {
                if (record != null) {
                    return "control record #" + recordIndex + " ends after part " + recordPart + " of "
                        + recordParts + ", before its last part";
                }
                record = new ByteArrayOutputStream();
                recordIndex = index;
                recordParts = part[1];
            } else if (record == null || index != recordIndex || part[0] != recordPart + 1 || part[1] != recordParts) {
                return "control record part " + part[0] + "/" + part[1] + " of call #" + index + " does not follow "
                    + (record == null ? "a first part" : "part " + recordPart + "/" + recordParts + " of call #"
                    + recordIndex);
            }
            record.writeBytes(bytes);
            recordPart = part[0];
            if (recordPart == recordParts) {
                completed = record.toByteArray();
                record = null;
            }
            return null;
        }

        /** The whole record once its last part has been read, else null. */
        byte[] completedRecord() {
            return completed;
        }

        /** A part of the memory bytes of call {@code index=}; null when it is the expected next part. */
        String memory(final Map<String, String> fields, final byte[] bytes) {
            final int[] part = part(fields);
            final int index = index(fields);
            if (part == null || index < 0) {
                return "memory bytes without a valid index= and part=k/n: " + fields;
            }
            final int seen = memoryParts.getOrDefault(index, 0);
            if (part[0] != seen + 1) {
                return "memory part " + part[0] + "/" + part[1] + " of control call #" + index + " where part "
                    + (seen + 1) + " was due";
            }
            memoryParts.put(index, part[0]);
            memory.computeIfAbsent(index, k -> new ByteArrayOutputStream()).writeBytes(bytes);
            return null;
        }

        String unfinished() {
            return record == null ? null : "the case's packets end inside control record #" + recordIndex
                + " (part " + recordPart + " of " + recordParts + ")";
        }

        /** Puts the recorded bytes in place of each digested readMemory answer; a problem when they do not match. */
        String restoreMemory(final List<RecordedCall> calls) {
            for (int i = 0; i < calls.size(); i++) {
                final RecordedCall call = calls.get(i);
                if (!MemoryDigest.isDigest(call.result())) {
                    continue;
                }
                final ByteArrayOutputStream bytes = memory.remove(call.index());
                if (bytes == null) {
                    return "the recording lacks the memory bytes of control call #" + call.index() + " ("
                        + call.op() + "), which its record gives as a digest";
                }
                final byte[] data = bytes.toByteArray();
                if (!MemoryDigest.matches(call.result(), data)) {
                    return "the memory bytes of control call #" + call.index() + " (" + call.op() + ", "
                        + data.length + " bytes) do not match the digest of its record " + call.result()
                        + ": the file was changed or damaged";
                }
                calls.set(i, new RecordedCall(call.index(), call.time(), call.op(), call.args(),
                    TextNode.valueOf(HexFormat.of().formatHex(data)), call.error(), call.framesBefore()));
            }
            if (!memory.isEmpty()) {
                return "the recording holds memory bytes for control call #" + memory.keySet().iterator().next()
                    + ", whose record has no digest that asks for them";
            }
            return null;
        }

        private static int index(final Map<String, String> fields) {
            try {
                return Integer.parseInt(fields.getOrDefault("index", ""));
            } catch (NumberFormatException e) {
                return -1;
            }
        }

        /** {@code part=k/n} as {k, n}, or null when absent or invalid. */
        private static int[] part(final Map<String, String> fields) {
            final String text = fields.get("part");
            final int slash = text == null ? -1 : text.indexOf('/');
            if (slash < 0) {
                return null;
            }
            try {
                final int k = Integer.parseInt(text.substring(0, slash));
                final int n = Integer.parseInt(text.substring(slash + 1));
                return k >= 1 && k <= n ? new int[] {k, n} : null;
            } catch (NumberFormatException e) {
                return null;
            }
        }
    }

    private static String call(final byte[] bytes, final List<RecordedCall> calls) {
        final JsonNode record;
        try {
            record = JSON.readTree(bytes);
        } catch (IOException e) {
            return "a control record that is not JSON: " + e.getMessage();
        }
        if (record == null || !record.isObject() || !record.path("index").canConvertToInt()
            || !record.path("op").isTextual()) {
            return "a control record without index and op: " + record;
        }
        final JsonNode error = record.path("error");
        calls.add(new RecordedCall(record.get("index").asInt(), record.path("timestampNanos").asLong(),
            record.get("op").asText(), record.path("args"), record.has("result") ? record.get("result")
                : NullNode.getInstance(), error.isTextual() ? error.asText() : null,
            record.path("framesBefore").canConvertToInt() ? record.get("framesBefore").asInt() : -1));
        return null;
    }
}
