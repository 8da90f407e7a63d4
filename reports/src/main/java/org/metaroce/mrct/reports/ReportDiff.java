package org.metaroce.mrct.reports;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.metaroce.mrct.harness.result.Verdict;
import org.metaroce.mrct.reports.internal.Markdown;
import org.metaroce.mrct.reports.internal.ReportReader;

/**
 * The difference between two runs, read from their {@code report.json}: cases whose verdict changed, cases only in
 * the first run (A) and cases only in the second (B). Changes and cases only in B follow B's order; cases only in A
 * follow A's.
 *
 * @param reportA the first report as given
 * @param reportB the second report as given
 * @param completeA whether run A was complete
 * @param completeB whether run B was complete
 * @param changed cases in both whose verdict differs
 * @param onlyInA cases only in A, with their verdict there
 * @param onlyInB cases only in B, with their verdict there
 * @param unchanged number of cases in both with the same verdict
 */
public record ReportDiff(String reportA, String reportB, boolean completeA, boolean completeB, List<Change> changed,
                         List<CaseVerdict> onlyInA, List<CaseVerdict> onlyInB, int unchanged) {
    public ReportDiff {
        changed = List.copyOf(changed);
        onlyInA = List.copyOf(onlyInA);
        onlyInB = List.copyOf(onlyInB);
    }

    /**
     * A case whose verdict changed.
     *
     * @param id the case ID
     * @param before its verdict in A
     * @param after its verdict in B
     */
    public record Change(String id, Verdict before, Verdict after) {
        /** True when B fails (FAIL or ERROR) where A did not. */
        public boolean regression() {
            return failing(after) && !failing(before);
        }

        private static boolean failing(final Verdict verdict) {
            return verdict == Verdict.FAIL || verdict == Verdict.ERROR;
        }
    }

    /**
     * A case and its verdict.
     *
     * @param id the case ID
     * @param verdict its verdict
     */
    public record CaseVerdict(String id, Verdict verdict) {
    }

    /**
     * Compares two reports.
     *
     * @throws ReportReadException naming the file that is missing, not JSON, not an mrct report of a version this
     *     code reads, or malformed (with the JSON pointer of the bad member)
     */
    public static ReportDiff compare(final Path reportA, final Path reportB) throws ReportReadException {
        final ReportReader.Verdicts a = ReportReader.read(reportA);
        final ReportReader.Verdicts b = ReportReader.read(reportB);
        final List<Change> changed = new ArrayList<>();
        final List<CaseVerdict> onlyInB = new ArrayList<>();
        int unchanged = 0;
        for (final Map.Entry<String, Verdict> entry : b.verdicts().entrySet()) {
            final Verdict before = a.verdicts().get(entry.getKey());
            if (before == null) {
                onlyInB.add(new CaseVerdict(entry.getKey(), entry.getValue()));
            } else if (before != entry.getValue()) {
                changed.add(new Change(entry.getKey(), before, entry.getValue()));
            } else {
                unchanged++;
            }
        }
        final List<CaseVerdict> onlyInA = new ArrayList<>();
        for (final Map.Entry<String, Verdict> entry : a.verdicts().entrySet()) {
            if (!b.verdicts().containsKey(entry.getKey())) {
                onlyInA.add(new CaseVerdict(entry.getKey(), entry.getValue()));
            }
        }
        return new ReportDiff(a.file(), b.file(), a.complete(), b.complete(), changed, onlyInA, onlyInB, unchanged);
    }

    /** True when both runs have the same cases with the same verdicts. */
    public boolean isEmpty() {
        return changed.isEmpty() && onlyInA.isEmpty() && onlyInB.isEmpty();
    }

    /** The changes that are regressions (B fails where A did not). */
    public List<Change> regressions() {
        return changed.stream().filter(Change::regression).toList();
    }

    /** Plain text for a terminal. */
    public String toText() {
        final StringBuilder out = new StringBuilder();
        out.append("A: ").append(reportA).append(completeA ? "" : " (incomplete run)").append('\n');
        out.append("B: ").append(reportB).append(completeB ? "" : " (incomplete run)").append('\n');
        if (isEmpty()) {
            return out.append("no differences: ").append(unchanged).append(" cases with the same verdicts\n")
                .toString();
        }
        out.append("verdict changed (").append(changed.size()).append("):\n");
        for (final Change change : changed) {
            out.append("  ").append(change.id()).append(": ").append(change.before()).append(" -> ")
                .append(change.after()).append(change.regression() ? "  (regression)" : "").append('\n');
        }
        out.append("only in A (").append(onlyInA.size()).append("):\n");
        for (final CaseVerdict item : onlyInA) {
            out.append("  ").append(item.id()).append(": ").append(item.verdict()).append('\n');
        }
        out.append("only in B (").append(onlyInB.size()).append("):\n");
        for (final CaseVerdict item : onlyInB) {
            out.append("  ").append(item.id()).append(": ").append(item.verdict()).append('\n');
        }
        out.append("unchanged: ").append(unchanged).append(" cases\n");
        return out.toString();
    }

    /** Markdown for a pull-request comment. */
    public String toMarkdown() {
        final StringBuilder out = new StringBuilder("### mrct: run comparison\n\n");
        out.append("A: ").append(Markdown.inline(reportA, 200)).append(completeA ? "" : " (incomplete run)")
            .append("  \nB: ").append(Markdown.inline(reportB, 200)).append(completeB ? "" : " (incomplete run)")
            .append("\n\n");
        if (isEmpty()) {
            return out.append("No differences: ").append(unchanged).append(" cases with the same verdicts.\n")
                .toString();
        }
        if (!changed.isEmpty()) {
            out.append("| case | A | B |\n| --- | --- | --- |\n");
            for (final Change change : changed) {
                out.append("| ").append(Markdown.inline(change.id(), 100)).append(" | ").append(change.before())
                    .append(" | ").append(change.after()).append(change.regression() ? " (regression)" : "")
                    .append(" |\n");
            }
            out.append('\n');
        }
        list(out, "Only in A", onlyInA);
        list(out, "Only in B", onlyInB);
        out.append("Unchanged: ").append(unchanged).append(" cases.\n");
        return out.toString();
    }

    private static void list(final StringBuilder out, final String title, final List<CaseVerdict> items) {
        if (items.isEmpty()) {
            return;
        }
        out.append(title).append(" (").append(items.size()).append("):\n\n");
        for (final CaseVerdict item : items) {
            out.append("- ").append(Markdown.inline(item.id(), 100)).append(": ").append(item.verdict()).append('\n');
        }
        out.append('\n');
    }
}
