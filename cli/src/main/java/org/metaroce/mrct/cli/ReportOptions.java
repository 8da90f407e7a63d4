package org.metaroce.mrct.cli;

import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Clock;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.metaroce.mrct.reports.ReportFormat;
import picocli.CommandLine.Option;

/** {@code --report-dir} and {@code --format} of {@code mrct run} and {@code mrct analyze}. */
final class ReportOptions {
    @Option(names = "--report-dir", paramLabel = "DIR", description = "where to write the reports "
        + "(default reports/<timestamp>/)")
    Path reportDir;

    @Option(names = "--format", split = ",", paramLabel = "FORMAT",
        description = "report formats: JSON, JUNIT, HTML, MARKDOWN, EVIDENCE (default all)")
    List<ReportFormat> formats = new ArrayList<>();

    /** The directory given, or {@code reports/<timestamp>/} of now. */
    Path dir() {
        return reportDir != null ? reportDir : Paths.get("reports", DateTimeFormatter
            .ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC).format(Clock.systemUTC().instant()));
    }

    /** The formats given, or all. */
    Set<ReportFormat> formats() {
        return formats.isEmpty() ? EnumSet.allOf(ReportFormat.class) : EnumSet.copyOf(formats);
    }
}
