package org.metaroce.mrct.reports.internal;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.metaroce.mrct.harness.result.CaseResult;

/** Maintains {@code report.json}. */
public final class JsonReportWriter implements ReportWriter {
    private final Path file;
    private final org.metaroce.mrct.reports.EvidencePolicy evidence;
    private final List<byte[]> fragments = new ArrayList<>();

    public JsonReportWriter(final Path file) {
        this(file, org.metaroce.mrct.reports.EvidencePolicy.ALL);
    }

    public JsonReportWriter(final Path file, final org.metaroce.mrct.reports.EvidencePolicy evidence) {
        this.evidence = evidence;
        this.file = file;
    }

    @Override
    public Path file() {
        return file;
    }

    @Override
    public void started(final RunState state) {
        fragments.clear();
    }

    @Override
    public void caseAdded(final CaseResult result, final RunState state) {
        fragments.add(JsonText.PRETTY.bytes(JsonModel.caseResult(result, Integer.MAX_VALUE,
            EvidenceWindow.of(evidence, result), state.last().pcapngBase()), JsonReport.CASE_DEPTH));
    }

    @Override
    public void write(final RunState state, final boolean last) throws IOException {
        AtomicFile.write(file, last, out -> JsonReport.write(out, JsonText.PRETTY, state, fragments));
    }
}
