package org.metaroce.mrct.replay.internal;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.metaroce.mrct.wire.DecodeStatus;
import org.metaroce.mrct.wire.DecodedFrame;
import org.metaroce.mrct.wire.FrameDecoder;
import org.metaroce.mrct.wire.FrameDescription;

/** The first difference between a recorded frame and the one the harness sent, in words. */
final class FrameDifference {
    private static final int MAX_FIELDS = 3;

    private FrameDifference() {
    }

    /** Null when the frames are the same bytes. */
    static String of(final byte[] recorded, final byte[] sent) {
        int first = 0;
        final int common = Math.min(recorded.length, sent.length);
        while (first < common && recorded[first] == sent[first]) {
            first++;
        }
        if (first == common && recorded.length == sent.length) {
            return null;
        }
        final StringBuilder out = new StringBuilder();
        final List<String> fields = fields(recorded, sent);
        if (!fields.isEmpty()) {
            out.append(String.join("; ", fields)).append(" (");
        }
        if (first == common) {
            out.append("length: recorded ").append(recorded.length).append(" bytes, sent ").append(sent.length);
        } else {
            out.append(String.format(Locale.ROOT, "first differing byte %d: recorded 0x%02x, sent 0x%02x", first,
                recorded[first] & 0xFF, sent[first] & 0xFF));
            if (recorded.length != sent.length) {
                out.append("; length: recorded ").append(recorded.length).append(" bytes, sent ").append(sent.length);
            }
        }
        return out.append(fields.isEmpty() ? "" : ")").toString();
    }

    /** The decoded fields that differ, in header order, at most {@link #MAX_FIELDS}. */
    private static List<String> fields(final byte[] recorded, final byte[] sent) {
        final Map<String, Object> a = flat(recorded);
        final Map<String, Object> b = flat(sent);
        final List<String> out = new ArrayList<>();
        for (final Map.Entry<String, Object> entry : a.entrySet()) {
            final Object other = b.get(entry.getKey());
            if (!String.valueOf(entry.getValue()).equals(String.valueOf(other)) && out.size() < MAX_FIELDS) {
                out.add(entry.getKey() + ": recorded " + entry.getValue() + ", sent " + other);
            }
        }
        for (final Map.Entry<String, Object> entry : b.entrySet()) {
            if (!a.containsKey(entry.getKey()) && out.size() < MAX_FIELDS) {
                out.add(entry.getKey() + ": not in the recorded frame, sent " + entry.getValue());
            }
        }
        return out;
    }

    private static Map<String, Object> flat(final byte[] bytes) {
        final DecodedFrame frame = new FrameDecoder().decode(ByteBuffer.wrap(bytes), 0, bytes.length);
        final Map<String, Object> nested = new LinkedHashMap<>();
        if (frame.status() != DecodeStatus.NOT_ROCE) {
            FrameDescription.describeHeaders(frame, nested);
        }
        final Map<String, Object> out = new LinkedHashMap<>();
        flatten("", nested, out);
        return out;
    }

    @SuppressWarnings("unchecked")
    private static void flatten(final String prefix, final Map<String, Object> map, final Map<String, Object> out) {
        for (final Map.Entry<String, Object> entry : map.entrySet()) {
            if (entry.getValue() instanceof Map<?, ?> child) {
                flatten(prefix + entry.getKey() + ".", (Map<String, Object>) child, out);
            } else {
                out.put(prefix + entry.getKey(), entry.getValue());
            }
        }
    }
}
