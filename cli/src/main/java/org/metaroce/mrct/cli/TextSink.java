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
 * {@code # <file>} line. Times are relative to the first frame of each file.
 */
final class TextSink implements FrameSink {
    private final Writer out;
    private final boolean nameFiles;

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
        write(FrameText.line(frame, number, timestampNanos - originNanos));
    }

    @Override
    public void undecoded(final long number, final long timestampNanos, final long originNanos, final int linkType,
                          final int capturedLength) throws IOException {
        write(FrameText.undecoded(number, timestampNanos - originNanos, linkType, capturedLength));
    }

    private void write(final String line) throws IOException {
        out.write(line);
        out.write('\n');
    }

    @Override
    public void flush() throws IOException {
        out.flush();
    }
}
