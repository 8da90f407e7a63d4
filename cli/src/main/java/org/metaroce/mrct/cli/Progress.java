package org.metaroce.mrct.cli;

import java.io.PrintStream;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import org.metaroce.mrct.harness.result.CaseResult;
import org.metaroce.mrct.harness.result.RunInfo;
import org.metaroce.mrct.harness.result.RunListener;
import org.metaroce.mrct.harness.result.RunSummary;
import org.metaroce.mrct.harness.result.Verdict;

/**
 * The run's progress on the error stream: on a terminal one live line (cases done of total, verdict counts, the case
 * running), rewritten in place; otherwise one plain line per case, fit for CI logs.
 */
final class Progress implements RunListener {
    private final PrintStream out;
    private final boolean live;
    private final Map<Verdict, Integer> counts = new EnumMap<>(Verdict.class);
    private int done;
    private int total;
    private int width;

    Progress(final PrintStream out, final boolean live) {
        this.out = out;
        this.live = live;
    }

    @Override
    public void runStarted(final RunInfo info) {
        total = info.caseCount();
        out.println("mrct run: " + total + " cases against " + info.adapter() + " (" + info.vendor() + " "
            + info.model() + " " + info.firmware() + "), seed " + info.seed() + (info.fault() != null ? ", fault "
            + info.fault() : "") + (info.strict() ? ", strict" : ""));
    }

    @Override
    public void caseStarted(final String id, final int index, final int totalCases) {
        if (live) {
            show(String.format(Locale.ROOT, "[%d/%d] %s| %s", done, total, tally(), id));
        }
    }

    @Override
    public void caseFinished(final CaseResult result) {
        done++;
        counts.merge(result.verdict(), 1, Integer::sum);
        final boolean notable = result.verdict() != Verdict.PASS && result.verdict() != Verdict.NOT_APPLICABLE;
        if (live) {
            if (notable) {
                show("");
                out.print('\r');
                out.println(line(result));
            }
            show(String.format(Locale.ROOT, "[%d/%d] %s", done, total, tally()));
        } else {
            out.println(line(result));
        }
    }

    @Override
    public void runFinished(final RunInfo info, final RunSummary summary) {
        if (live) {
            show("");
            out.print('\r');
        }
        out.flush();
    }

    private static String line(final CaseResult result) {
        return String.format(Locale.ROOT, "%-14s %s%s", result.verdict(), result.id(),
            result.verdict() == Verdict.PASS ? "" : ": " + result.reason());
    }

    private String tally() {
        final StringBuilder text = new StringBuilder();
        for (final Map.Entry<Verdict, Integer> entry : counts.entrySet()) {
            text.append(entry.getKey().name(), 0, Math.min(4, entry.getKey().name().length())).append(' ')
                .append(entry.getValue()).append(' ');
        }
        return text.toString();
    }

    private void show(final String text) {
        final String padded = text.length() < width ? text + " ".repeat(width - text.length()) : text;
        width = text.length();
        out.print('\r');
        out.print(padded.length() > 150 ? padded.substring(0, 150) : padded);
        out.flush();
    }
}
