package org.metaroce.mrct.reports.internal;

import java.io.IOException;
import java.nio.file.Path;
import org.metaroce.mrct.harness.result.CaseResult;

/** Maintains {@code report.json}. */
public final class JsonReportWriter implements ReportWriter {
    private final Path file;
    private final org.metaroce.mrct.reports.EvidencePolicy evidence;
    /**
     * Bytes of cases after which later cases carry a narrow window ({@link EvidenceWindow#of(
     * org.metaroce.mrct.reports.EvidencePolicy, CaseResult, boolean)}): the document stays under about 20 MB however
     * many large cases fail.
     */
    public static final long BUDGET_BYTES = 12_000_000L;

    /** The case objects, each rendered once when its case finished, with the separators before them. */
    private final Spill spill;
    private long carried;

    public JsonReportWriter(final Path file) {
        this(file, org.metaroce.mrct.reports.EvidencePolicy.ALL);
    }

    public JsonReportWriter(final Path file, final org.metaroce.mrct.reports.EvidencePolicy evidence) {
        this.evidence = evidence;
        this.file = file;
        this.spill = Spill.beside(file, "");
    }

    @Override
    public Path file() {
        return file;
    }

    @Override
    public void started(final RunState state) {
        spill.reset();
        carried = 0;
    }

    @Override
    public void caseAdded(final CaseResult result, final RunState state) {
        final byte[] fragment = JsonText.PRETTY.bytes(JsonModel.caseResult(result, Integer.MAX_VALUE,
            EvidenceWindow.of(evidence, result, carried >= BUDGET_BYTES), state.last().pcapngBase()),
            JsonReport.CASE_DEPTH);
        spill.append(JsonReport.separator(JsonText.PRETTY, spill.entries()), fragment);
        carried += fragment.length;
    }

    @Override
    public void write(final RunState state, final boolean last) throws IOException {
        try {
            AtomicFile.write(file, last, out -> JsonReport.write(new Spill.Positioned(out), JsonText.PRETTY, state,
                spill.entries(), spill::copyTo));
            if (last) {
                spill.settled(file);
            }
        } finally {
            if (last) {
                spill.delete();
            }
        }
    }
}
