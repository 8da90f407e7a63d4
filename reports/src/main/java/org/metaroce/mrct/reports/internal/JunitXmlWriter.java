package org.metaroce.mrct.reports.internal;

import java.io.IOException;
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
import org.metaroce.mrct.harness.result.RunInfo;

/**
 * Maintains {@code junit.xml} in the JUnit XML format CI servers read: one {@code <testsuite name="mrct.<area>">}
 * per area (in the order areas first ran), one {@code <testcase>} per case. FAIL is a {@code <failure>} whose message
 * names the rule, the step and the field and whose type is the rule ID; ERROR is an {@code <error>}; NOT_APPLICABLE and
 * INCONCLUSIVE are {@code <skipped>}; WARN passes with the warning in {@code <system-out>}. While the run is
 * incomplete, a suite {@code mrct.run} holds one erroring test case saying so, so that a CI server reading a report
 * left by a crash does not take it for a success.
 */
public final class JunitXmlWriter implements ReportWriter {
    private static final DateTimeFormatter TIMESTAMP = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss")
        .withZone(ZoneOffset.UTC);

    private final Path file;
    private final Map<String, Suite> suites = new LinkedHashMap<>();

    public JunitXmlWriter(final Path file) {
        this.file = file;
    }

    /** The cases of one area, rendered. */
    private static final class Suite {
        private final StringBuilder cases = new StringBuilder();
        private int tests;
        private int failures;
        private int errors;
        private int skipped;
        private long nanos;
    }

    @Override
    public Path file() {
        return file;
    }

    @Override
    public void started(final RunState state) {
        suites.clear();
    }

    @Override
    public void caseAdded(final CaseResult result, final RunState state) {
        final String area = Text.orEmpty(result.area());
        final Suite suite = suites.computeIfAbsent(area, a -> new Suite());
        suite.tests++;
        suite.nanos += Math.max(0, result.wallNanos());
        final StringBuilder out = suite.cases;
        out.append("    <testcase name=\"").append(Xml.attribute(result.id() + " " + Text.orEmpty(result.title())))
            .append("\" classname=\"mrct.").append(Xml.attribute(area))
            .append("\" time=\"").append(Times.seconds(result.wallNanos())).append('"');
        final String headline = FailureText.headline(result.reason(), result.failure(), result.rules());
        final StringBuilder body = new StringBuilder();
        switch (result.verdict()) {
            case FAIL:
                suite.failures++;
                element(body, "failure", headline, failureType(result), FailureText.detail(result));
                break;
            case ERROR:
                suite.errors++;
                element(body, "error", Text.orEmpty(result.reason()), "mrct.ERROR", FailureText.detail(result));
                break;
            case NOT_APPLICABLE:
                suite.skipped++;
                element(body, "skipped", "not applicable: " + Text.orEmpty(result.reason()), null, null);
                break;
            case INCONCLUSIVE:
                suite.skipped++;
                element(body, "skipped", "inconclusive: " + Text.orEmpty(result.reason()), null,
                    FailureText.detail(result));
                break;
            default:
                break;
        }
        final String systemOut = systemOut(result, headline);
        if (!systemOut.isEmpty()) {
            body.append("      <system-out>").append(Xml.text(systemOut)).append("</system-out>\n");
        }
        if (body.length() == 0) {
            out.append("/>\n");
        } else {
            out.append(">\n").append(body).append("    </testcase>\n");
        }
    }

    private static String failureType(final CaseResult result) {
        if (result.failure() != null && result.failure().rule() != null && !result.failure().rule().isBlank()) {
            return result.failure().rule();
        }
        return result.rules().isEmpty() ? "mrct.FAIL" : result.rules().get(0);
    }

    private static String systemOut(final CaseResult result, final String headline) {
        final StringBuilder out = new StringBuilder();
        switch (result.verdict()) {
            case WARN:
                out.append("WARN ").append(headline).append('\n').append(FailureText.detail(result));
                break;
            case PASS:
                if (!result.notes().isEmpty()) {
                    out.append("notes:\n");
                    for (final String note : result.notes()) {
                        out.append("  - ").append(note).append('\n');
                    }
                }
                break;
            default:
                break;
        }
        return out.toString();
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
        AtomicFile.write(file, last, stream -> {
            final Writer out = new OutputStreamWriter(stream, StandardCharsets.UTF_8);
            render(out, state);
            out.flush();
        });
    }

    private void render(final Writer out, final RunState state) throws IOException {
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
            out.append(suite.cases);
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

    private static String incompleteMessage(final RunState state) {
        if (state.finished()) {
            return "the run stopped early after " + state.cases().size() + " of " + state.info().caseCount()
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
        final StringBuilder out = new StringBuilder("    <properties>\n");
        for (final Map.Entry<String, String> entry : values.entrySet()) {
            out.append("      <property name=\"").append(entry.getKey()).append("\" value=\"")
                .append(Xml.attribute(entry.getValue())).append("\"/>\n");
        }
        return out.append("    </properties>\n").toString();
    }
}
