package org.metaroce.mrct.cli.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** Colour on a terminal only, NO_COLOR respected (issue 11 item 7). */
class TerminalTest {
    private static final Map<String, String> XTERM = Map.of("TERM", "xterm-256color");

    @Test
    void aTerminalStreamGetsColourAndALiveLine() {
        final Terminal err = Terminal.of("err", "out,err", false, XTERM);

        assertThat(err.colour()).isTrue();
        assertThat(err.live()).isTrue();
        assertThat(err.verdict("FAIL", "FAIL")).isEqualTo("\033[1;31mFAIL\033[0m");
        assertThat(err.verdict("CONFORMANT", "CONFORMANT")).isEqualTo("\033[32mCONFORMANT\033[0m");
        assertThat(err.verdict("WARN", "WARN")).isEqualTo("\033[33mWARN\033[0m");
    }

    @Test
    void aPipeOrAFileNeverGetsColourEvenWhenTheOtherStreamIsATerminal() {
        final Terminal out = Terminal.of("out", "err", true, XTERM); // ./mrct run > log: only stderr is a terminal

        assertThat(out.colour()).isFalse();
        assertThat(out.live()).isFalse();
        assertThat(out.verdict("FAIL", "FAIL")).isEqualTo("FAIL");
        assertThat(Terminal.of("err", "", true, XTERM).colour()).as("launcher: neither is a terminal").isFalse();
    }

    @Test
    void noColorTurnsColourOffButKeepsTheLiveLine() {
        final Terminal err = Terminal.of("err", "out,err", false, Map.of("TERM", "xterm", "NO_COLOR", "1"));

        assertThat(err.colour()).isFalse();
        assertThat(err.live()).isTrue();
        assertThat(Terminal.of("err", "err", false, Map.of("NO_COLOR", "")).colour()).as("empty NO_COLOR").isTrue();
        assertThat(Terminal.of("err", "err", false, Map.of("TERM", "dumb")).colour()).isFalse();
    }

    @Test
    void withoutTheLauncherTheConsoleDecides() {
        assertThat(Terminal.of("out", null, true, XTERM).colour()).isTrue();
        assertThat(Terminal.of("out", null, false, XTERM).colour()).isFalse();
    }
}
