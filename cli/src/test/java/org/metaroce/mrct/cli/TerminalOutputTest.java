package org.metaroce.mrct.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metaroce.mrct.cli.internal.FailureLines;
import org.metaroce.mrct.cli.internal.Terminal;

/** What {@code mrct run} writes for failing cases on a terminal and into a pipe (issue 11 item 7). */
class TerminalOutputTest {
    private static Mrct.Run run(final Terminal terminal, final String... args) {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final int status;
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
             PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            status = Main.run(args, o, e, terminal, terminal);
        }
        return new Mrct.Run(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void intoAPipeFailLinesFit160ColumnsWithoutColour(@TempDir final Path dir) {
        final Mrct.Run run = run(Terminal.PLAIN, "run", "--fault", "no-rate-cut", "-s", "CC-012", "--generated", "0",
            "--report-dir", dir.toString());

        assertThat(run.status()).as(run.err()).isEqualTo(1);
        assertThat(run.errLines()).contains("FAIL           CC-012-alpha-decay: MR-CC-010: step 9, line 35")
            .allSatisfy(l -> assertThat(l.length()).isLessThanOrEqualTo(FailureLines.WIDTH));
        assertThat(run.lines()).allSatisfy(l -> assertThat(l.length()).isLessThanOrEqualTo(FailureLines.WIDTH));
        assertThat(run.out() + run.err()).doesNotContain("\033");
    }

    @Test
    void onAColourTerminalVerdictsAndTheOverallResultAreColoured(@TempDir final Path dir) {
        final Terminal colour = Terminal.of("err", "out,err", false, Map.of("TERM", "xterm"));

        final Mrct.Run run = run(colour, "run", "--fault", "no-rate-cut", "-s", "CC-012", "--generated", "0",
            "--report-dir", dir.toString());

        assertThat(run.status()).as(run.err()).isEqualTo(1);
        assertThat(run.err()).contains("\033[1;31mFAIL\033[0m           CC-012-alpha-decay: MR-CC-010: step 9");
        assertThat(run.out()).contains("\033[1;31mNON_CONFORMANT\033[0m: ");
    }
}
