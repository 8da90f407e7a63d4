package org.metaroce.mrct.cli;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.io.OutputStream;
import java.util.LinkedHashMap;
import java.util.Map;
import org.metaroce.mrct.wire.DecodedFrame;
import org.metaroce.mrct.wire.FrameDescription;

/**
 * JSON Lines: one compact object per frame with the keys of {@link FrameDescription}, preceded by {@code file} when
 * several files are decoded. A frame of a non-Ethernet capture is {@code {"frame", "ts_ns", "roce": false,
 * "link_type"}}: it was not decoded, which is not an error of the frame. With {@code --comments} every object ends with
 * {@code comment}: the frame's capture comment, or null.
 */
final class JsonLinesSink implements FrameSink {
    private final ObjectMapper mapper = new ObjectMapper().disable(SerializationFeature.FLUSH_AFTER_WRITE_VALUE);
    private final JsonGenerator json;
    private final boolean nameFiles;
    private String file;
    private boolean comments;
    private String comment;

    /**
     * @param out       the buffered output, not closed by this sink
     * @param nameFiles true to add a {@code file} key to every object
     */
    JsonLinesSink(final OutputStream out, final boolean nameFiles) throws IOException {
        this.json = mapper.getFactory().createGenerator(out).disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
        this.json.setRootValueSeparator(null);
        this.nameFiles = nameFiles;
    }

    @Override
    public void startFile(final String name) {
        this.file = name;
    }

    @Override
    public void frame(final DecodedFrame frame, final long number, final long timestampNanos,
                      final long originNanos) throws IOException {
        write(FrameDescription.describe(frame, number, timestampNanos));
    }

    @Override
    public void undecoded(final long number, final long timestampNanos, final long originNanos, final int linkType,
                          final int capturedLength) throws IOException {
        final Map<String, Object> object = new LinkedHashMap<>();
        object.put("frame", number);
        object.put("ts_ns", timestampNanos);
        object.put("roce", false);
        object.put("link_type", linkType);
        write(object);
    }

    @Override
    public void comment(final String text) {
        comments = true;
        comment = text;
    }

    private void write(final Map<String, Object> object) throws IOException {
        Map<String, Object> line = object;
        if (nameFiles || comments) {
            line = new LinkedHashMap<>();
            if (nameFiles) {
                line.put("file", file);
            }
            line.putAll(object);
            if (comments) {
                line.put("comment", comment);
                comment = null;
            }
        }
        mapper.writeValue(json, line);
        json.writeRaw('\n');
    }

    @Override
    public void flush() throws IOException {
        json.flush();
    }
}
