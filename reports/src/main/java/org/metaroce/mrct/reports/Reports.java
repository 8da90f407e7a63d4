package org.metaroce.mrct.reports;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.metaroce.mrct.harness.result.RunListener;
import org.metaroce.mrct.harness.spec.Specification;
import org.metaroce.mrct.reports.internal.EvidenceWriter;
import org.metaroce.mrct.reports.internal.HtmlReportWriter;
import org.metaroce.mrct.reports.internal.JsonReportWriter;
import org.metaroce.mrct.reports.internal.JunitXmlWriter;
import org.metaroce.mrct.reports.internal.MarkdownSummaryWriter;
import org.metaroce.mrct.reports.internal.ReportSet;
import org.metaroce.mrct.reports.internal.ReportWriter;
import org.metaroce.mrct.reports.internal.RunState;

/**
 * Opens the report writers of a run.
 *
 * <pre>{@code
 * RunListener reports = Reports.open(dir, EnumSet.allOf(ReportFormat.class), Specification.bundled());
 * engine.run(cases, reports);
 * }</pre>
 *
 * <p>Every file is written atomically (a temporary file in the same directory, then an atomic move over the old one)
 * on {@code runStarted}, after every case that did not pass, after passing cases at most every half second, and on
 * {@code runFinished}, so a crash leaves valid reports of the cases done so far (every failure, passes up to half a
 * second old); until {@code runFinished} each says that the run is incomplete. The exception is
 * {@code evidence.pcapng}, which is appended to (whole blocks, handed to the file after every case; a pcapng file cut
 * at a block boundary is valid). Each case is rendered once
 * when it finishes and appended to a hidden spill file beside its report, so a rewrite costs a copy of the bytes, and
 * what stays in memory is bounded whatever the run's size. Writing failures are thrown as
 * {@link ReportWriteException} naming the file.
 */
public final class Reports {
    private Reports() {
    }

    /**
     * A listener writing {@code formats} into {@code dir} (created when missing).
     *
     * @param dir the report directory (the CLI chooses it)
     * @param formats the files to write; not empty
     * @param spec the specification, for the rule texts and levels of the HTML report and of the rule matrix of a
     *     run in progress; may be null (the texts are then left out)
     * @throws IOException when the directory cannot be created
     */
    public static RunListener open(final Path dir, final Set<ReportFormat> formats, final Specification spec)
        throws IOException {
        return listener(dir, formats, spec, EvidencePolicy.FAILURES);
    }

    /**
     * As {@link #open(Path, Set, Specification)}, choosing which cases carry their frames in {@code report.json} and
     * {@code report.html} ({@code evidence.pcapng} always has them all).
     */
    public static RunListener open(final Path dir, final Set<ReportFormat> formats, final Specification spec,
                                   final EvidencePolicy evidence) throws IOException {
        return listener(dir, formats, spec, evidence);
    }

    /**
     * As {@link #open(Path, Set, Specification, EvidencePolicy)}, typed as what it is: a {@link ReportListener}, which
     * also tells a finished case's frame numbers in {@code evidence.pcapng} (for a terminal's FAIL line). ({@code open}
     * keeps its {@link RunListener} type so that code compiled against it keeps linking.)
     */
    public static ReportListener listener(final Path dir, final Set<ReportFormat> formats, final Specification spec,
                                          final EvidencePolicy evidence) throws IOException {
        if (formats.isEmpty()) {
            throw new IllegalArgumentException("no report format asked for; formats are "
                + EnumSet.allOf(ReportFormat.class));
        }
        Files.createDirectories(dir);
        final List<ReportWriter> writers = new ArrayList<>();
        for (final ReportFormat format : EnumSet.copyOf(formats)) {
            final Path file = dir.resolve(format.fileName());
            switch (format) {
                case JSON:
                    writers.add(new JsonReportWriter(file, evidence));
                    break;
                case JUNIT:
                    writers.add(new JunitXmlWriter(file));
                    break;
                case HTML:
                    writers.add(new HtmlReportWriter(file, evidence));
                    break;
                case MARKDOWN:
                    writers.add(new MarkdownSummaryWriter(file, siblings(formats)));
                    break;
                case EVIDENCE:
                    writers.add(new EvidenceWriter(file));
                    break;
                default:
                    throw new IllegalArgumentException("unknown format " + format);
            }
        }
        return new ReportSet(new RunState(spec), writers);
    }

    /** The files written beside the summary, most useful first. */
    private static List<String> siblings(final Set<ReportFormat> formats) {
        final List<String> names = new ArrayList<>();
        for (final ReportFormat format : List.of(ReportFormat.HTML, ReportFormat.JSON, ReportFormat.JUNIT,
            ReportFormat.EVIDENCE)) {
            if (formats.contains(format)) {
                names.add(format.fileName());
            }
        }
        return names;
    }
}
