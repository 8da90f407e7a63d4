package org.metaroce.mrct.cli;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** Runs {@code mrct} in-process through {@link Main#run} and captures what it wrote. */
final class Mrct {
    private Mrct() {
    }

    /** The outcome of one run. */
    record Run(int status, String out, String err) {
        /** The standard output's lines. */
        List<String> lines() {
            return out.lines().toList();
        }

        /** The error stream's lines. */
        List<String> errLines() {
            return err.lines().toList();
        }
    }

    /** Runs {@code mrct args...}. */
    static Run run(final String... args) {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final int status;
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
             PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            status = Main.run(args, o, e);
        }
        return new Run(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }
}
