package org.metaroce.mrct.cli;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Clock;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import org.metaroce.mrct.reports.ReportFormat;
import picocli.CommandLine.Option;

/**
 * {@code --report-dir}, {@code --format} and {@code --keep} of {@code mrct run} and {@code mrct analyze}.
 *
 * <p>The default directory is {@code mrct-reports/<timestamp>/} under the working directory: a name of its own, so
 * that run from the top of a checkout it is no source module's folder (it was {@code reports/<timestamp>/}, inside the
 * report writers' Maven module, where clearing old runs with {@code rm -rf reports/*} deleted the module's sources).
 */
final class ReportOptions {
    /** Where runs go by default, under the working directory. */
    static final String DEFAULT_PARENT = "mrct-reports";
    /** The name of a run's default directory: its start, UTC, to the second. */
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'")
        .withZone(ZoneOffset.UTC);
    private static final Pattern RUN_NAME = Pattern.compile("\\d{8}T\\d{6}Z");
    /** The files that make a directory a run's reports (one is enough). */
    private static final List<String> REPORT_FILES = List.of("report.json", "summary.md", "junit.xml",
        "report.html", "evidence.pcapng");

    @Option(names = "--report-dir", paramLabel = "DIR", description = "where to write the reports "
        + "(default mrct-reports/<timestamp>/)")
    Path reportDir;

    @Option(names = "--format", split = ",", paramLabel = "FORMAT",
        description = "report formats: JSON, JUNIT, HTML, MARKDOWN, EVIDENCE (default all)")
    List<ReportFormat> formats = new ArrayList<>();

    @Option(names = "--keep", paramLabel = "N", description = "after writing, keep only the N newest run directories "
        + "beside the reports (those named <timestamp>, as the default's; nothing else is touched); default: all")
    Integer keep;

    /** The directory given, or {@code mrct-reports/<timestamp>/} of now. */
    Path dir() {
        return reportDir != null ? reportDir : Paths.get(DEFAULT_PARENT, STAMP.format(Clock.systemUTC().instant()));
    }

    /** The formats given, or all. */
    Set<ReportFormat> formats() {
        return formats.isEmpty() ? EnumSet.allOf(ReportFormat.class) : EnumSet.copyOf(formats);
    }

    /** Checks {@code --keep} before anything runs. */
    void check() throws RunCommand.UsageProblem {
        if (keep != null && keep < 1) {
            throw new RunCommand.UsageProblem("--keep takes the number of runs to keep, at least 1, not " + keep);
        }
    }

    /**
     * {@code --keep N}: deletes the oldest run directories beside {@code dir} (named {@code <timestamp>}, holding
     * reports) so that {@code N} remain, {@code dir} always among them. Nothing happens without {@code --keep}.
     *
     * @return the directories deleted
     */
    List<Path> prune(final Path dir) throws IOException {
        if (keep == null) {
            return List.of();
        }
        final Path current = dir.toAbsolutePath().normalize();
        final Path parent = current.getParent();
        final List<Path> runs = new ArrayList<>();
        if (parent == null) {
            return List.of();
        }
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(parent)) {
            for (final Path entry : entries) {
                if (!entry.equals(current) && RUN_NAME.matcher(entry.getFileName().toString()).matches()
                    && Files.isDirectory(entry, LinkOption.NOFOLLOW_LINKS) && holdsReports(entry)) {
                    runs.add(entry);
                }
            }
        }
        Collections.sort(runs); // the names sort as the times do
        final List<Path> deleted = new ArrayList<>();
        for (int i = 0; i < runs.size() - (keep - 1); i++) {
            deleteTree(runs.get(i));
            deleted.add(runs.get(i));
        }
        return deleted;
    }

    private static boolean holdsReports(final Path dir) {
        for (final String name : REPORT_FILES) {
            if (Files.isRegularFile(dir.resolve(name), LinkOption.NOFOLLOW_LINKS)) {
                return true;
            }
        }
        return false;
    }

    /** Deletes {@code dir} and what it holds; symbolic links are deleted, never followed. */
    private static void deleteTree(final Path dir) throws IOException {
        Files.walkFileTree(dir, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(final Path file, final BasicFileAttributes attributes)
                throws IOException {
                Files.delete(file);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(final Path directory, final IOException failure)
                throws IOException {
                if (failure != null) {
                    throw failure;
                }
                Files.delete(directory);
                return FileVisitResult.CONTINUE;
            }
        });
    }

    /** Prunes after a run and says so on {@code err} ({@code command}: {@code mrct run}, ...); failures are reported. */
    void pruneAfter(final Path dir, final String command, final java.io.PrintStream err) {
        try {
            final List<Path> deleted = prune(dir);
            if (!deleted.isEmpty()) {
                err.println(command + ": --keep " + keep + ": removed " + deleted.size() + " older run"
                    + (deleted.size() == 1 ? "" : "s") + " from " + dir.toAbsolutePath().normalize().getParent());
            }
        } catch (IOException e) {
            err.println(command + ": --keep " + keep + ": cannot remove an older run: " + e.getMessage());
        }
    }
}
