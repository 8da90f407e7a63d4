package org.metaroce.mrct.cli;

import java.io.IOException;
import org.metaroce.mrct.wire.DecodedFrame;

/** Where {@code mrct decode} writes the frames it read: one call per frame, streaming, nothing kept. */
interface FrameSink {
    /** A new file starts; its frames follow. */
    void startFile(String name) throws IOException;

    /**
     * A frame of an Ethernet capture, as decoded (RoCE, malformed RoCE or not RoCE).
     *
     * @param number         1-based record number in its file
     * @param timestampNanos the record's timestamp, nanoseconds since the epoch
     * @param originNanos    the timestamp of the file's first record
     */
    void frame(DecodedFrame frame, long number, long timestampNanos, long originNanos) throws IOException;

    /** A frame of another link type, which is not decoded; the parameters as for {@link #frame}. */
    void undecoded(long number, long timestampNanos, long originNanos, int linkType, int capturedLength)
        throws IOException;

    /**
     * The capture comment of the frame that the next {@link #frame} or {@link #undecoded} call writes (null: it has
     * none); called before each frame only with {@code --comments}.
     */
    void comment(String comment);

    /** Writes out everything buffered so far. */
    void flush() throws IOException;
}
