package org.metaroce.mrct.cli;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;

/**
 * An {@link OutputStream} over a {@link PrintStream} that reports write failures instead of swallowing them: a
 * {@code PrintStream} only records an error, so a closed pipe ({@code mrct decode big.pcap | head}) would otherwise go
 * unnoticed while the rest of the file is decoded for nothing. Meant to sit under a large buffer, since every write
 * checks (and so flushes) the print stream.
 */
final class ConsoleOutput extends OutputStream {
    private final PrintStream out;

    ConsoleOutput(final PrintStream out) {
        this.out = out;
    }

    @Override
    public void write(final int b) throws IOException {
        out.write(b);
        check();
    }

    @Override
    public void write(final byte[] bytes, final int offset, final int length) throws IOException {
        out.write(bytes, offset, length);
        check();
    }

    @Override
    public void flush() throws IOException {
        check();
    }

    private void check() throws IOException {
        if (out.checkError()) {
            if (PipeAwareStream.closedPipe(out)) {
                throw new OutputFailedException("the reader of the output went away (closed pipe)", true);
            }
            throw new OutputFailedException("the output stream cannot be written to (closed pipe or full disk?)",
                false);
        }
    }

    /**
     * The output could not be written; unlike an input problem this ends the command at once. When its reader went
     * away ({@code | head}) the command ends quietly with status 0, as a Unix filter does.
     */
    static final class OutputFailedException extends IOException {
        private static final long serialVersionUID = 1L;
        private final boolean closedPipe;

        OutputFailedException(final String message, final boolean closedPipe) {
            super(message);
            this.closedPipe = closedPipe;
        }

        /** Whether the reader of the output went away (a closed pipe), which is no failure. */
        boolean closedPipe() {
            return closedPipe;
        }
    }
}
