package org.metaroce.mrct.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A reader that goes away ({@code mrct decode x.pcapng | head}, {@code mrct list | head}) ends the command quietly
 * with status 0, as a Unix filter does (issue 11 item 7); a full disk under the output stays an error.
 */
class ClosedPipeTest {
    /** A standard output whose reader takes {@code limit} bytes and then closes the pipe (or the disk fills). */
    private static final class Reader extends OutputStream {
        private final int limit;
        private final String failure;
        private int taken;

        Reader(final int limit, final String failure) {
            this.limit = limit;
            this.failure = failure;
        }

        @Override
        public void write(final int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(final byte[] bytes, final int offset, final int length) throws IOException {
            if (taken + length > limit) {
                throw new IOException(failure);
            }
            taken += length;
        }
    }

    private static Mrct.Run run(final OutputStream stdout, final String... args) {
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final int status;
        try (PrintStream out = new PipeAwareStream(stdout);
             PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            status = Main.run(args, out, e);
        }
        return new Mrct.Run(status, "", err.toString(StandardCharsets.UTF_8));
    }

    private static Path evidence(final Path dir) {
        final Mrct.Run run = Mrct.run("run", "-s", "QP-00", "--generated", "0", "--report-dir", dir.toString(),
            "--quiet");
        assertThat(run.status()).as(run.err()).isZero();
        return dir.resolve("evidence.pcapng");
    }

    @Test
    void decodeIntoAClosedPipeEndsQuietlyWith0(@TempDir final Path dir) {
        final Path capture = evidence(dir);
        for (final String format : new String[] {"json", "text"}) {
            final Mrct.Run run = run(new Reader(300, "Broken pipe"), "decode", "--format", format,
                capture.toString());

            assertThat(run.status()).as(format + ": " + run.err()).isZero();
            assertThat(run.err()).as(format).isEmpty();
        }
    }

    @Test
    void decodeOntoAFullDiskIsStillAnError(@TempDir final Path dir) {
        final Mrct.Run run = run(new Reader(300, "No space left on device"), "decode", evidence(dir).toString());

        assertThat(run.status()).isEqualTo(1);
        assertThat(run.err()).contains("mrct decode: the output stream cannot be written to");
    }

    @Test
    void listIntoAClosedPipeEndsQuietlyWith0() {
        final Mrct.Run run = run(new Reader(200, "Broken pipe"), "list");

        assertThat(run.status()).isZero();
        assertThat(run.err()).isEmpty();
    }
}
