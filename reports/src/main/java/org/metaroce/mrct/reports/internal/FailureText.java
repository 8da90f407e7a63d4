package org.metaroce.mrct.reports.internal;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.metaroce.mrct.harness.result.CaseResult;
import org.metaroce.mrct.harness.result.Failure;
import org.metaroce.mrct.harness.result.FieldDiff;

/**
 * How a failure reads in the reports: a headline naming the rule, the step and the field (expected against actual),
 * and the full detail a firmware engineer needs. Steps are numbered from 1, as the case's reason and every report number
 * them; a frame is named by its number in {@code evidence.pcapng} (the number Wireshark shows), with its index in the
 * case beside it ({@link Numbering}).
 */
public final class FailureText {
    private FailureText() {
    }

    /**
     * One line: {@code MR-ORD-004, step 4 (expect ACK): sacketh.bitmap expected 5 (0x5), actual 7 (0x7); and 1 more
     * field}. Falls back to the failure's message when it names no field, and to the reason when there is no failure.
     */
    public static String headline(final String reason, final Failure failure, final List<String> rules) {
        if (failure == null) {
            final String rule = rules.isEmpty() ? "" : rules.get(0) + ": ";
            return rule + Text.orEmpty(reason);
        }
        final StringBuilder line = new StringBuilder();
        line.append(Text.orEmpty(failure.rule()).isEmpty() && !rules.isEmpty() ? rules.get(0) : failure.rule());
        if (failure.step() >= 0) {
            line.append(", step ").append(Numbering.step(failure.step()));
            if (failure.stepDescription() != null && !failure.stepDescription().isBlank()) {
                line.append(" (").append(Text.oneLine(failure.stepDescription(), 80)).append(')');
            }
        }
        line.append(": ");
        final List<FieldDiff> diffs = failure.diffs();
        if (diffs.isEmpty()) {
            line.append(Text.orEmpty(failure.message()).isEmpty() ? Text.orEmpty(reason) : failure.message());
        } else {
            line.append(diffs.get(0));
            if (diffs.size() > 1) {
                line.append("; and ").append(diffs.size() - 1).append(diffs.size() == 2 ? " more field" : " more fields");
            }
        }
        return line.toString();
    }

    /** Every detail of a case that did not pass, as plain text lines, without evidence.pcapng frame numbers. */
    public static String detail(final CaseResult result) {
        return detail(result, -1);
    }

    /**
     * Every detail of a case that did not pass, as plain text lines; {@code pcapngBase} is the number of packets
     * evidence.pcapng held before the case's first frame (-1 when not known), for the offending frame's number there.
     */
    public static String detail(final CaseResult result, final long pcapngBase) {
        final StringBuilder out = new StringBuilder();
        out.append("case ").append(result.id()).append(": ").append(Text.orEmpty(result.title())).append('\n');
        out.append("verdict: ").append(result.verdict()).append('\n');
        out.append("reason: ").append(Text.orEmpty(result.reason())).append('\n');
        out.append("rules: ").append(String.join(", ", result.rules())).append('\n');
        out.append("file: ").append(Text.orEmpty(result.file()));
        final Failure failure = result.failure();
        if (failure != null && failure.stepLine() > 0) {
            out.append(':').append(failure.stepLine());
        }
        out.append('\n');
        if (!result.parameters().isEmpty()) {
            out.append("parameters: ").append(parameters(result.parameters())).append('\n');
        }
        if (failure != null) {
            out.append("failed rule: ").append(Text.orEmpty(failure.rule())).append('\n');
            if (failure.step() >= 0) {
                out.append("step ").append(Numbering.step(failure.step()));
                if (failure.stepLine() > 0) {
                    out.append(" (line ").append(failure.stepLine()).append(')');
                }
                out.append(": ").append(Text.orEmpty(failure.stepDescription())).append('\n');
            }
            out.append("frame: ").append(failure.frame() >= 0 ? Numbering.frame(Numbering.pcapngFrame(pcapngBase,
                failure.frame()), failure.frame()) : "none (nothing arrived)").append('\n');
            out.append("message: ").append(Text.orEmpty(failure.message())).append('\n');
            if (!failure.diffs().isEmpty()) {
                out.append("fields:\n");
                for (final FieldDiff diff : failure.diffs()) {
                    out.append("  ").append(diff).append('\n');
                }
            }
            block(out, "expected frame", failure.expectedFrame());
            block(out, "actual frame", failure.actualFrame());
        }
        if (!result.notes().isEmpty()) {
            out.append("notes:\n");
            for (final String note : result.notes()) {
                out.append("  - ").append(note).append('\n');
            }
        }
        if (pcapngBase >= 0 && !result.evidence().isEmpty()) {
            out.append("evidence: frames ").append(Numbering.pcapngFrame(pcapngBase, 0)).append('-')
                .append(Numbering.pcapngFrame(pcapngBase, result.evidence().size() - 1))
                .append(" in evidence.pcapng\n");
        }
        out.append("attempts: ").append(result.attempts()).append('\n');
        return out.toString();
    }

    /** Parameters as {@code a=1, b=x}, sorted by name. */
    public static String parameters(final Map<String, Object> parameters) {
        final StringBuilder out = new StringBuilder();
        for (final Map.Entry<String, Object> entry : new TreeMap<>(parameters).entrySet()) {
            if (out.length() > 0) {
                out.append(", ");
            }
            out.append(entry.getKey()).append('=').append(entry.getValue());
        }
        return out.toString();
    }

    private static void block(final StringBuilder out, final String title, final String text) {
        if (text == null || text.isBlank()) {
            return;
        }
        out.append(title).append(":\n");
        for (final String line : text.split("\n", -1)) {
            out.append("  ").append(line).append('\n');
        }
    }
}
