package org.metaroce.mrct.cli.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** FAIL lines of at most 160 characters with the details below, nothing of the reason lost (issue 11 item 7). */
class FailureLinesTest {
    /** A reason as the harness writes it, from a {@code --fault no-rate-cut} run: 420 characters on one line before. */
    private static final String RATE = "MR-CC-010: step 7 (expect the rate of q to follow DCQCN, line 40): the window "
        + "rate of q over the 16 data packets from 40200 ns to 45560 ns (frame #122 on) is 99964.2 Mb/s, expected at "
        + "most 52500.0 Mb/s (largest model Rc 50000.0 Mb/s + 5%); the model's Rc there follows CNP at 40 us "
        + "(MR-CC-010): Rc 50000.0 Mb/s, Rt 100000.0 Mb/s, alpha 1.0000 [root cause: window rate (Mb/s) differs]";
    private static final String NESTED = "MR-CC-016: step 27 (expect no any frame on a [bth.psn] for 8 * (78 + pmtu + 15 "
        + "* (74 + pmtu)) * 100000 / (max(dcqcn_min_rate_mbps, line_rate_mbps / 2) * (100 + rate_tolerance_pct)) - 1, "
        + "line 55): frame #36 (RDMA_READ_RESPONSE_LAST) arrived 1409 ns after the previous step";

    private static String words(final List<String> lines) {
        return String.join(" ", lines).replaceAll("\\s+", " ").strip();
    }

    @Test
    void theHeadlineNamesCaseRuleStepAndLineAndTheDetailsFollowIndented() {
        final String id = "CC-011-initial-rate-and-first-cut[alpha_init=1,pmtu=max_pmtu]";

        final List<String> lines = FailureLines.of("FAIL", id, RATE, Terminal.PLAIN);

        assertThat(lines.get(0)).isEqualTo("FAIL           " + id + ": MR-CC-010: step 7, line 40");
        assertThat(lines).allSatisfy(l -> assertThat(l.length()).isLessThanOrEqualTo(FailureLines.WIDTH));
        assertThat(lines.subList(1, lines.size())).isNotEmpty().allSatisfy(l -> assertThat(l).startsWith("    "));
        assertThat(lines.get(1)).startsWith("    expect the rate of q to follow DCQCN: the window rate of q");
        assertThat(words(lines.subList(1, lines.size()))).as("every word of the reason, the step's moved above")
            .isEqualTo(RATE.replace("MR-CC-010: step 7 (", "").replace(", line 40)", ""));
    }

    @Test
    void nestedParenthesesInTheStepStayWhole() {
        final List<String> lines = FailureLines.of("FAIL", "CC-016-cnp-changes-named-qp-only", NESTED,
            Terminal.PLAIN);

        assertThat(lines.get(0)).endsWith("CC-016-cnp-changes-named-qp-only: MR-CC-016: step 27, line 55");
        assertThat(words(lines.subList(1, lines.size()))).isEqualTo("expect no any frame on a [bth.psn] for 8 * (78 + "
            + "pmtu + 15 * (74 + pmtu)) * 100000 / (max(dcqcn_min_rate_mbps, line_rate_mbps / 2) * (100 + "
            + "rate_tolerance_pct)) - 1: frame #36 (RDMA_READ_RESPONSE_LAST) arrived 1409 ns after the previous step");
        assertThat(lines).allSatisfy(l -> assertThat(l.length()).isLessThanOrEqualTo(FailureLines.WIDTH));
    }

    @Test
    void anotherReasonIsWrappedAsItIsAndAShortOneStaysOnOneLine() {
        final String reason = "device error: " + "the agent closed the connection while a case ran; ".repeat(6);

        final List<String> lines = FailureLines.of("ERROR", "QP-001-x", reason, Terminal.PLAIN);

        assertThat(lines).allSatisfy(l -> assertThat(l.length()).isLessThanOrEqualTo(FailureLines.WIDTH));
        assertThat(words(lines)).isEqualTo(("ERROR QP-001-x: " + reason).strip());
        assertThat(FailureLines.of("WARN", "ACK-003", "MR-ACK-003: late", Terminal.PLAIN))
            .containsExactly("WARN           ACK-003: MR-ACK-003: late");
        assertThat(FailureLines.of("PASS", "ACK-003", null, Terminal.PLAIN)).containsExactly("PASS           ACK-003");
    }

    @Test
    void onAColourTerminalOnlyTheVerdictIsColoured() {
        final Terminal colour = Terminal.of("err", "out,err", false, Map.of("TERM", "xterm"));

        final List<String> lines = FailureLines.of("FAIL", "CC-012-alpha-decay", RATE, colour);

        assertThat(lines.get(0)).startsWith("\033[1;31mFAIL\033[0m           CC-012-alpha-decay: MR-CC-010: step 7");
        assertThat(String.join("", lines.subList(1, lines.size()))).doesNotContain("\033");
    }
}
