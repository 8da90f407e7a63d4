package org.metaroce.mrct.cli;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import org.metaroce.mrct.wire.DecodedFrame;

/**
 * Text lines for people ({@link FrameText}); when several files are decoded each file's frames are preceded by a
 * {@code # <file>} line. Times are relative to the first frame of each file. With {@code --comments} a frame's capture
 * comment follows its line, indented, after {@code #}.
 */
final class TextSink implements FrameSink {
    private final Writer out;
    private final boolean nameFiles;
    private String comment;

    /**
     * @param out       the buffered output, not closed by this sink
     * @param nameFiles true to write a header line before each file
     */
    TextSink(final OutputStream out, final boolean nameFiles) {
        this.out = new BufferedWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), 1 << 14);
        this.nameFiles = nameFiles;
    }

    @Override
    public void startFile(final String name) throws IOException {
        if (nameFiles) {
            write("# " + name);
        }
    }

    @Override
    public void frame(final DecodedFrame frame, final long number, final long timestampNanos,
                      final long originNanos) throws IOException {
        writeFrame(FrameText.line(frame, number, timestampNanos - originNanos));
    }

    @Override
    public void undecoded(final long number, final long timestampNanos, final long originNanos, final int linkType,
                          final int capturedLength) throws IOException {
        writeFrame(FrameText.undecoded(number, timestampNanos - originNanos, linkType, capturedLength));
    }

    @Override
    public void comment(final String text) {
        comment = text;
    }

    private void write(final String line) throws IOException {
        out.write(line);
        out.write('\n');
    }

    /** A frame's line, then its comment (if any) on the next line, indented and after {@code #}. */
    private void writeFrame(final String line) throws IOException {
        write(line);
        if (comment != null) {
            // a comment may span lines: each is a line of its own here
            for (final String part : comment.split("\r?\n", -1)) {
                write("         # " + part);
            }
            comment = null;
        }
    }

    @Override
    public void flush() throws IOException {
        out.flush();
    }
}
