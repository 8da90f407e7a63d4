package org.metaroce.mrct.reports.internal;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.metaroce.mrct.harness.result.BaselineComparison;
import org.metaroce.mrct.harness.result.CaseResult;
import org.metaroce.mrct.harness.result.RunInfo;
import org.metaroce.mrct.harness.result.Verdict;
import org.metaroce.mrct.reports.CauseGroups;

/**
 * Maintains {@code summary.md}: the overall verdict, the counts, the failing cases and the baseline comparison, short
 * enough for a pull-request comment whatever the run (lists are cut with "and N more"; about 45 lines at most).
 */
public final class MarkdownSummaryWriter implements ReportWriter {
    /** Failing cases listed before "and N more". */
    static final int MAX_FAILING = RunState.FAILING_KEPT;
    /** Case IDs listed per baseline line before "and N more". */
    static final int MAX_IDS = 10;
    private static final int REASON_WIDTH = 120;

    private final Path file;
    private final List<String> siblings;

    /**
     * A writer of {@code file}.
     *
     * @param file the summary file
     * @param siblings names of the other report files written beside it, for the summary's last line
     */
    public MarkdownSummaryWriter(final Path file, final List<String> siblings) {
        this.file = file;
        this.siblings = List.copyOf(siblings);
    }

    @Override
    public Path file() {
        return file;
    }

    @Override
    public void started(final RunState state) {
        // everything comes from the state
    }

    @Override
    public void caseAdded(final CaseResult result, final RunState state) {
        // everything comes from the state
    }

    @Override
    public void write(final RunState state, final boolean last) throws IOException {
        final byte[] bytes = render(state, siblings).getBytes(StandardCharsets.UTF_8);
        AtomicFile.write(file, last, out -> out.write(bytes));
    }

    /** The summary's text; {@code siblings} are the other report files, named on its last line. */
    public static String render(final RunState state, final List<String> siblings) {
        final RunInfo info = state.info();
        final StringBuilder out = new StringBuilder();
        out.append("## mrct: ").append(state.overall()).append("\n\n");
        out.append("**").append(state.overall()).append("**: ").append(Markdown.inline(state.reason(), 200))
            .append("\n\n");
        out.append(Markdown.inline(device(info), 200)).append(" · adapter ").append(Markdown.inline(info.adapter(), 60))
            .append(" · spec ").append(Markdown.inline(info.specVersion(), 20)).append(" · seed ").append(info.seed())
            .append(info.strict() ? " · strict" : "").append(" · ").append(state.done()).append(" of ")
            .append(info.caseCount()).append(" cases\n\n");
        if (!state.complete()) {
            out.append("> **Incomplete:** ").append(state.finished()
                ? "the run stopped before every case ran; verdicts cover the cases that did."
                : "the run has not finished; this summary covers the cases done so far.").append("\n\n");
        }
        out.append("| verdict | cases |\n| --- | ---: |\n");
        for (final Map.Entry<Verdict, Integer> count : state.counts().entrySet()) {
            out.append("| ").append(count.getKey()).append(" | ").append(count.getValue()).append(" |\n");
        }
        final List<CauseGroups.Group> causes = state.causes().groups();
        final int otherCases = state.causes().otherCases();
        if (!causes.isEmpty()) {
            out.append("\n### Root causes (").append(causes.size()).append(otherCases > 0 ? "+" : "").append(")\n\n");
            out.append("| cases | rule | field | cause | examples |\n| ---: | --- | --- | --- | --- |\n");
            for (int i = 0; i < Math.min(MAX_FAILING, causes.size()); i++) {
                final CauseGroups.Group cause = causes.get(i);
                out.append("| ").append(cause.count()).append(" | ").append(Markdown.inline(cause.rule(), 40))
                    .append(" | ").append(Markdown.inline(cause.field(), 40)).append(" | ")
                    .append(Markdown.inline(cause.cause(), 100)).append(" | ").append(Markdown.inline(String.join(", ",
                        cause.examples()), 160)).append(" |\n");
            }
            if (causes.size() > MAX_FAILING) {
                out.append("\nand ").append(causes.size() - MAX_FAILING).append(" more\n");
            }
            if (otherCases > 0) {
                out.append("\nand ").append(otherCases).append(otherCases == 1 ? " case" : " cases")
                    .append(" failing of other causes (only the first ").append(CauseGroups.MAX_GROUPS)
                    .append(" causes are grouped)\n");
            }
        }
        final List<CaseEntry> failing = state.failing();
        final int failingCount = state.failingCount();
        if (failingCount > 0) {
            out.append("\n### Failing cases (").append(failingCount).append(")\n\n");
            out.append("| case | verdict | rule | frame | reason |\n| --- | --- | --- | ---: | --- |\n");
            for (int i = 0; i < Math.min(MAX_FAILING, failing.size()); i++) {
                final CaseEntry entry = failing.get(i);
                out.append("| ").append(Markdown.inline(entry.id(), 80)).append(" | ").append(entry.verdict())
                    .append(" | ").append(Markdown.inline(entry.mainRule(), 40)).append(" | ").append(frame(entry))
                    .append(" | ").append(Markdown.inline(entry.reason(), REASON_WIDTH)).append(" |\n");
            }
            if (failingCount > MAX_FAILING) {
                out.append("\nand ").append(failingCount - MAX_FAILING).append(" more\n");
            }
        }
        final BaselineComparison baseline = state.baseline();
        if (baseline != null) {
            out.append("\n### Against the baseline ").append(Markdown.inline(baseline.baseline(), 80)).append("\n\n");
            out.append("- newly failing ").append(ids(baseline.newlyFailing())).append('\n');
            out.append("- newly passing ").append(ids(baseline.newlyPassing())).append('\n');
            out.append("- stale entries, matching no case of this run ").append(ids(baseline.stale())).append('\n');
            out.append("- known failures (").append(baseline.known().size()).append(")\n");
        }
        if (!siblings.isEmpty()) {
            out.append("\nDetails: `").append(String.join("`, `", siblings)).append("`.\n");
        }
        return out.toString();
    }

    /** The offending frame's number in evidence.pcapng (the number Wireshark shows), or empty. */
    private static String frame(final CaseEntry entry) {
        final long frame = entry.failure() == null ? -1 : entry.pcapngFrame(entry.failure().frame());
        return frame > 0 ? Long.toString(frame) : "";
    }

    private static String device(final RunInfo info) {
        return String.join(" ", List.of(Text.orEmpty(info.vendor()), Text.orEmpty(info.model()),
            info.firmware() == null || info.firmware().isEmpty() ? "" : "firmware " + info.firmware())).trim();
    }

    private static String ids(final List<String> ids) {
        if (ids.isEmpty()) {
            return "(0)";
        }
        final StringBuilder out = new StringBuilder("(").append(ids.size()).append("): ");
        for (int i = 0; i < Math.min(MAX_IDS, ids.size()); i++) {
            out.append(i == 0 ? "" : ", ").append(Markdown.inline(ids.get(i), 60));
        }
        if (ids.size() > MAX_IDS) {
            out.append(" and ").append(ids.size() - MAX_IDS).append(" more");
        }
        return out.toString();
    }
}
