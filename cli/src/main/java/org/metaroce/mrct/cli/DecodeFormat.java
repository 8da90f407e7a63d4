package org.metaroce.mrct.cli;

import java.io.IOException;
import java.io.OutputStream;

/** The output formats of {@code mrct decode}. */
enum DecodeFormat {
    /** JSON Lines: one compact object per frame ({@link JsonLinesSink}). */
    JSON,
    /** One aligned line per frame for people ({@link TextSink}). */
    TEXT;

    /** A sink of this format writing to {@code out}; {@code nameFiles} when several files are decoded. */
    FrameSink sink(final OutputStream out, final boolean nameFiles) throws IOException {
        return this == JSON ? new JsonLinesSink(out, nameFiles) : new TextSink(out, nameFiles);
    }
}
