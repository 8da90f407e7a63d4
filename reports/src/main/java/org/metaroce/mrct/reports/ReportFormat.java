package org.metaroce.mrct.reports;

/** The files a run's report directory can hold; {@link Reports#open} writes the ones asked for. */
public enum ReportFormat {
    /** {@code report.json}: everything, in the documented schema {@code reports/schema/report-v1.schema.json}. */
    JSON("report.json"),
    /** {@code junit.xml}: one test suite per area, one test case per case, for CI servers. */
    JUNIT("junit.xml"),
    /** {@code report.html}: one self-contained page (rule matrix, filters, ladder diagrams, plots). */
    HTML("report.html"),
    /** {@code summary.md}: a short summary fit for a pull-request comment. */
    MARKDOWN("summary.md"),
    /** {@code evidence.pcapng}: every frame of every case, one comment per frame. */
    EVIDENCE("evidence.pcapng");

    private final String fileName;

    ReportFormat(final String fileName) {
        this.fileName = fileName;
    }

    /** The file this format is written to, inside the report directory. */
    public String fileName() {
        return fileName;
    }
}
