package org.metaroce.mrct.cli;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * A {@link PrintStream} that remembers why its output failed: a {@code PrintStream} records only that it did
 * ({@link #checkError()}), and a reader that went away ({@code mrct decode x.pcapng | head}, "Broken pipe") is no
 * failure of {@code mrct}, while a full disk is. The JVM ignores SIGPIPE, so a closed pipe shows as that
 * {@link IOException}.
 */
final class PipeAwareStream extends PrintStream {
    private final Watch watch;

    PipeAwareStream(final OutputStream out) {
        this(new Watch(out));
    }

    private PipeAwareStream(final Watch watch) {
        super(watch, true, StandardCharsets.UTF_8);
        this.watch = watch;
    }

    /** Whether a write failed because the reading end of a pipe was closed. */
    boolean closedPipe() {
        return watch.closedPipe;
    }

    /** Whether {@code stream} is one of these and its reader went away. */
    static boolean closedPipe(final PrintStream stream) {
        return stream instanceof PipeAwareStream aware && aware.closedPipe();
    }

    /** Whether {@code e} says that the reading end of a pipe was closed (EPIPE). */
    static boolean isClosedPipe(final IOException e) {
        final String message = e.getMessage();
        return message != null && (message.contains("Broken pipe") || message.contains("pipe is being closed"));
    }

    /** The stream under the print stream, noting a closed pipe before the print stream swallows the exception. */
    private static final class Watch extends OutputStream {
        private final OutputStream out;
        private volatile boolean closedPipe;

        Watch(final OutputStream out) {
            this.out = out;
        }

        @Override
        public void write(final int b) throws IOException {
            try {
                out.write(b);
            } catch (IOException e) {
                throw noted(e);
            }
        }

        @Override
        public void write(final byte[] bytes, final int offset, final int length) throws IOException {
            try {
                out.write(bytes, offset, length);
            } catch (IOException e) {
                throw noted(e);
            }
        }

        @Override
        public void flush() throws IOException {
            try {
                out.flush();
            } catch (IOException e) {
                throw noted(e);
            }
        }

        private IOException noted(final IOException e) {
            if (isClosedPipe(e)) {
                closedPipe = true;
            }
            return e;
        }
    }
}
