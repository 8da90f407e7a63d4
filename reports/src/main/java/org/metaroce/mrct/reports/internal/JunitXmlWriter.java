package org.metaroce.mrct.reports.internal;

import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import org.metaroce.mrct.harness.result.CaseResult;
import org.metaroce.mrct.harness.result.Failure;
import org.metaroce.mrct.harness.result.RunInfo;
import org.metaroce.mrct.harness.result.Verdict;

/**
 * Maintains {@code junit.xml} in the JUnit XML format CI servers read: one {@code <testsuite name="mrct.<area>">}
 * per area (in the order areas first ran), one {@code <testcase>} per case. FAIL is a {@code <failure>} whose message
 * names the rule, the step and the field and whose type is the rule ID; ERROR is an {@code <error>}; NOT_APPLICABLE and
 * INCONCLUSIVE are {@code <skipped>}; WARN passes with the warning in {@code <system-err>}, the properties
 * {@code mrct.verdict}, {@code mrct.rule} and {@code mrct.warning}, and a count in its suite's {@code <system-err>} and
 * the run's {@code mrct.warnings} property (a CI server shows a WARN as a pass otherwise). While the run is
 * incomplete, a suite {@code mrct.run} holds one erroring test case saying so, so that a CI server reading a report
 * left by a crash does not take it for a success.
 */
public final class JunitXmlWriter implements ReportWriter {
    private static final DateTimeFormatter TIMESTAMP = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss")
        .withZone(ZoneOffset.UTC);

    private final Path file;
    private static final byte[] SEPARATOR = ", ".getBytes(StandardCharsets.UTF_8);

    private final Map<String, Suite> suites = new LinkedHashMap<>();

    public JunitXmlWriter(final Path file) {
        this.file = file;
    }

    /**
     * The cases of one area, each {@code <testcase>} rendered once when its case finished, in a spill file, and the IDs
     * of its WARN cases (escaped, with the separators between them) in another.
     */
    private static final class Suite {
        private final Spill cases;
        private final Spill warnings;
        private int tests;
        private int failures;
        private int errors;
        private int skipped;
        private long nanos;

        Suite(final Path file, final int index) {
            this.cases = Spill.beside(file, "." + index);
            this.warnings = Spill.beside(file, "." + index + ".warn");
        }
    }

    @Override
    public Path file() {
        return file;
    }

    @Override
    public void started(final RunState state) {
        deleteSpills();
        suites.clear();
    }

    @Override
    public void caseAdded(final CaseResult result, final RunState state) {
        final String area = Text.orEmpty(result.area());
        final Suite suite = suites.computeIfAbsent(area, a -> new Suite(file, suites.size()));
        suite.tests++;
        suite.nanos += Math.max(0, result.wallNanos());
        final StringBuilder out = new StringBuilder();
        out.append("    <testcase name=\"").append(Xml.attribute(result.id() + " " + Text.orEmpty(result.title())))
            .append("\" classname=\"mrct.").append(Xml.attribute(area))
            .append("\" time=\"").append(Times.seconds(result.wallNanos())).append('"');
        final String headline = FailureText.headline(result.reason(), result.failure(), result.rules());
        final long base = state.last().pcapngBase();
        final String detail = FailureText.detail(result, base);
        final StringBuilder body = new StringBuilder();
        properties(body, result, headline, base);
        switch (result.verdict()) {
            case FAIL:
                suite.failures++;
                element(body, "failure", headline, failureType(result), detail);
                break;
            case ERROR:
                suite.errors++;
                element(body, "error", Text.orEmpty(result.reason()), "mrct.ERROR", detail);
                break;
            case NOT_APPLICABLE:
                suite.skipped++;
                element(body, "skipped", "not applicable: " + Text.orEmpty(result.reason()), null, null);
                break;
            case INCONCLUSIVE:
                suite.skipped++;
                element(body, "skipped", "inconclusive: " + Text.orEmpty(result.reason()), null, detail);
                break;
            case WARN:
                suite.warnings.append(suite.warnings.entries() == 0 ? new byte[0] : SEPARATOR,
                    Xml.text(result.id()).getBytes(StandardCharsets.UTF_8));
                break;
            default:
                break;
        }
        final String systemOut = notes(result);
        if (!systemOut.isEmpty()) {
            body.append("      <system-out>").append(Xml.text(systemOut)).append("</system-out>\n");
        }
        if (result.verdict() == Verdict.WARN) {
            body.append("      <system-err>").append(Xml.text("WARN " + headline + "\n" + detail))
                .append("</system-err>\n");
        }
        if (body.length() == 0) {
            out.append("/>\n");
        } else {
            out.append(">\n").append(body).append("    </testcase>\n");
        }
        suite.cases.append(new byte[0], out.toString().getBytes(StandardCharsets.UTF_8));
    }

    private void deleteSpills() {
        for (final Suite suite : suites.values()) {
            suite.cases.delete();
            suite.warnings.delete();
        }
    }

    private static String failureType(final CaseResult result) {
        if (result.failure() != null && result.failure().rule() != null && !result.failure().rule().isBlank()) {
            return result.failure().rule();
        }
        return result.rules().isEmpty() ? "mrct.FAIL" : result.rules().get(0);
    }

    /** The notes of a passing case (a WARN's are in its detail), or empty. */
    private static String notes(final CaseResult result) {
        final StringBuilder out = new StringBuilder();
        if (result.verdict() == Verdict.PASS && !result.notes().isEmpty()) {
            out.append("notes:\n");
            for (final String note : result.notes()) {
                out.append("  - ").append(note).append('\n');
            }
        }
        return out.toString();
    }

    /**
     * The case's own {@code <properties>} for every verdict but PASS: {@code mrct.verdict} (JUnit has no WARN or
     * INCONCLUSIVE), and for a failure its {@code mrct.rule}, {@code mrct.step} (1-based), {@code mrct.pcapngFrame}
     * (the offending frame's number in evidence.pcapng) and, for a WARN, {@code mrct.warning} (the headline).
     */
    private static void properties(final StringBuilder out, final CaseResult result, final String headline,
                                   final long base) {
        if (result.verdict() == Verdict.PASS || result.verdict() == null) {
            return;
        }
        final Map<String, String> values = new LinkedHashMap<>();
        values.put("mrct.verdict", result.verdict().name());
        final Failure failure = result.failure();
        if (failure != null) {
            values.put("mrct.rule", failure.rule());
            if (failure.step() >= 0) {
                values.put("mrct.step", Integer.toString(Numbering.step(failure.step())));
            }
            final long frame = Numbering.pcapngFrame(base, failure.frame());
            if (frame > 0) {
                values.put("mrct.pcapngFrame", Long.toString(frame));
            }
        }
        if (result.verdict() == Verdict.WARN) {
            values.put("mrct.warning", headline);
        }
        out.append("      <properties>\n");
        for (final Map.Entry<String, String> entry : values.entrySet()) {
            out.append("        <property name=\"").append(entry.getKey()).append("\" value=\"")
                .append(Xml.attribute(entry.getValue())).append("\"/>\n");
        }
        out.append("      </properties>\n");
    }

    private static void element(final StringBuilder out, final String name, final String message, final String type,
                                final String detail) {
        out.append("      <").append(name).append(" message=\"").append(Xml.attribute(message)).append('"');
        if (type != null) {
            out.append(" type=\"").append(Xml.attribute(type)).append('"');
        }
        if (detail == null || detail.isEmpty()) {
            out.append("/>\n");
        } else {
            out.append('>').append(Xml.text(detail)).append("</").append(name).append(">\n");
        }
    }

    @Override
    public void write(final RunState state, final boolean last) throws IOException {
        try {
            AtomicFile.write(file, last, raw -> {
                final OutputStream stream = new Spill.Positioned(raw);
                final Writer out = new OutputStreamWriter(stream, StandardCharsets.UTF_8);
                render(out, stream, state);
                out.flush();
            });
            if (last) {
                for (final Suite suite : suites.values()) {
                    suite.cases.settled(file);
                    suite.warnings.settled(file);
                }
            }
        } finally {
            if (last) {
                deleteSpills();
            }
        }
    }

    private void render(final Writer out, final OutputStream stream, final RunState state) throws IOException {
        final String timestamp = timestamp(state.info().start());
        final String properties = properties(state);
        int tests = 0;
        int failures = 0;
        int errors = 0;
        int skipped = 0;
        long nanos = 0;
        for (final Suite suite : suites.values()) {
            tests += suite.tests;
            failures += suite.failures;
            errors += suite.errors;
            skipped += suite.skipped;
            nanos += suite.nanos;
        }
        final boolean incomplete = !state.complete();
        if (incomplete) {
            tests++;
            errors++;
        }
        out.write("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        out.write("<testsuites name=\"mrct\" tests=\"" + tests + "\" failures=\"" + failures + "\" errors=\"" + errors
            + "\" skipped=\"" + skipped + "\" time=\"" + Times.seconds(nanos) + "\"" + timestamp + ">\n");
        for (final Map.Entry<String, Suite> entry : suites.entrySet()) {
            final Suite suite = entry.getValue();
            suiteStart(out, entry.getKey(), suite.tests, suite.failures, suite.errors, suite.skipped, suite.nanos,
                timestamp, properties);
            out.flush();
            suite.cases.copyTo(stream);
            if (suite.warnings.entries() > 0) {
                // the text escaped in two parts is the text escaped whole: the escaping is character by character
                out.write("    <system-err>" + Xml.text(warnings(suite.warnings.entries(), suite.tests)));
                out.flush();
                suite.warnings.copyTo(stream);
                out.write("</system-err>\n");
            }
            out.write("  </testsuite>\n");
        }
        if (incomplete) {
            suiteStart(out, "run", 1, 0, 1, 0, 0, timestamp, properties);
            out.write("    <testcase name=\"run complete\" classname=\"mrct.run\" time=\"0.000\">\n");
            out.write("      <error message=\"" + Xml.attribute(incompleteMessage(state))
                + "\" type=\"mrct.INCOMPLETE\"/>\n");
            out.write("    </testcase>\n");
            out.write("  </testsuite>\n");
        }
        out.write("</testsuites>\n");
    }

    /** {@code 2 of 14 cases passed with a warning (WARN): }. */
    private static String warnings(final int warnings, final int tests) {
        return warnings + " of " + tests + (tests == 1 ? " case" : " cases") + " passed with a warning (WARN): ";
    }

    private static String incompleteMessage(final RunState state) {
        if (state.finished()) {
            return "the run stopped early after " + state.done() + " of " + state.info().caseCount()
                + " cases: " + Text.orEmpty(state.reason());
        }
        return "the report is incomplete: " + state.reason();
    }

    private static void suiteStart(final Writer out, final String area, final int tests, final int failures,
                                   final int errors, final int skipped, final long nanos, final String timestamp,
                                   final String properties) throws IOException {
        out.write("  <testsuite name=\"mrct." + Xml.attribute(area) + "\" tests=\"" + tests + "\" failures=\""
            + failures + "\" errors=\"" + errors + "\" skipped=\"" + skipped + "\" time=\"" + Times.seconds(nanos)
            + "\"" + timestamp + ">\n");
        out.write(properties);
    }

    private static String timestamp(final Instant start) {
        return start == null ? "" : " timestamp=\"" + TIMESTAMP.format(start) + "\"";
    }

    private static String properties(final RunState state) {
        final RunInfo info = state.info();
        final Map<String, String> values = new LinkedHashMap<>();
        values.put("mrct.suiteVersion", info.suiteVersion());
        values.put("mrct.specVersion", info.specVersion());
        values.put("mrct.adapter", info.adapter());
        values.put("mrct.vendor", info.vendor());
        values.put("mrct.model", info.model());
        values.put("mrct.firmware", info.firmware());
        values.put("mrct.profile", info.profile());
        values.put("mrct.profileHash", info.profileHash());
        values.put("mrct.pics", String.join(",", info.pics()));
        values.put("mrct.parameters", FailureText.parameters(new TreeMap<>(info.parameters())));
        values.put("mrct.seed", Long.toString(info.seed()));
        values.put("mrct.strict", Boolean.toString(info.strict()));
        values.put("mrct.fault", info.fault());
        values.put("mrct.selection", String.join(" ", info.selection()));
        values.put("mrct.caseCount", Integer.toString(info.caseCount()));
        values.put("mrct.start", JsonModel.instant(info.start()));
        values.put("mrct.end", JsonModel.instant(state.end()));
        values.put("mrct.complete", Boolean.toString(state.complete()));
        values.put("mrct.overall", state.overall().name());
        // JUnit counts a WARN as a pass: the run's verdict counts, WARN among them
        final Map<Verdict, Integer> counts = state.counts();
        values.put("mrct.warnings", Integer.toString(counts.getOrDefault(Verdict.WARN, 0)));
        final StringBuilder all = new StringBuilder();
        for (final Map.Entry<Verdict, Integer> entry : counts.entrySet()) {
            all.append(all.length() == 0 ? "" : " ").append(entry.getKey().name()).append('=').append(entry.getValue());
        }
        values.put("mrct.counts", all.toString());
        final StringBuilder out = new StringBuilder("    <properties>\n");
        for (final Map.Entry<String, String> entry : values.entrySet()) {
            out.append("      <property name=\"").append(entry.getKey()).append("\" value=\"")
                .append(Xml.attribute(entry.getValue())).append("\"/>\n");
        }
        return out.append("    </properties>\n").toString();
    }
}
