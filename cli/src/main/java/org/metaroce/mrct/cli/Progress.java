package org.metaroce.mrct.cli;

import java.io.PrintStream;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import org.metaroce.mrct.cli.internal.FailureLines;
import org.metaroce.mrct.cli.internal.Terminal;
import org.metaroce.mrct.harness.result.CaseResult;
import org.metaroce.mrct.harness.result.RunInfo;
import org.metaroce.mrct.harness.result.RunListener;
import org.metaroce.mrct.harness.result.RunSummary;
import org.metaroce.mrct.harness.result.Verdict;

/**
 * The run's progress on the error stream: on a terminal one live line (cases done of total, verdict counts, the case
 * running), rewritten in place; otherwise one plain line per case, fit for CI logs. A case that did not pass gets a
 * headline and its details below ({@link FailureLines}), its verdict in colour where the terminal allows.
 */
final class Progress implements RunListener {
    private final PrintStream out;
    private final boolean live;
    private final Terminal terminal;
    private final Map<Verdict, Integer> counts = new EnumMap<>(Verdict.class);
    private int done;
    private int total;
    private java.util.function.ToLongBiFunction<String, Integer> frameNumbers;
    private int width;

    /** Progress on {@code out}; a silent one ({@code --quiet}) only counts the cases done. */
    Progress(final PrintStream out, final Terminal terminal, final boolean silent) {
        this.out = silent ? new PrintStream(java.io.OutputStream.nullOutputStream()) : out;
        this.live = !silent && terminal.live();
        this.terminal = terminal;
    }

    /** Cases finished so far. */
    synchronized int done() {
        return done;
    }

    /** Cases the run plans. */
    synchronized int total() {
        return total;
    }

    @Override
    public synchronized void runStarted(final RunInfo info) {
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
    public synchronized void caseFinished(final CaseResult result) {
        done++;
        counts.merge(result.verdict(), 1, Integer::sum);
        final boolean notable = result.verdict() != Verdict.PASS && result.verdict() != Verdict.NOT_APPLICABLE;
        if (live) {
            if (notable) {
                show("");
                out.print('\r');
                lines(result);
            }
            show(String.format(Locale.ROOT, "[%d/%d] %s", done, total, tally()));
        } else {
            lines(result);
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

    private void lines(final CaseResult result) {
        for (final String line : FailureLines.of(result.verdict().name(), result.id(),
            result.verdict() == Verdict.PASS ? null : result.reason(), terminal)) {
            out.println(line);
        }
        if (result.failure() != null && result.failure().frame() >= 0 && frameNumbers != null) {
            final long number = frameNumbers.applyAsLong(result.id(), result.failure().frame());
            if (number > 0) {
                out.println(FailureLines.INDENT + "the frame is number " + number + " in evidence.pcapng (#"
                    + result.failure().frame() + " of the case)");
            }
        }
    }

    /**
     * Where the reports put a case's frames in evidence.pcapng, so a failure names its frame as Wireshark numbers it
     * (the reports' listener must see each case before this one does).
     */
    Progress withFrameNumbers(final java.util.function.ToLongBiFunction<String, Integer> numbers) {
        this.frameNumbers = numbers;
        return this;
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
