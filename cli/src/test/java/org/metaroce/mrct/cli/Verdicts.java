package org.metaroce.mrct.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.stream.Stream;

/** Case-by-case verdicts of a run's report.json, and their comparison with another run's. */
final class Verdicts {
    /** One case's verdict and reason. */
    record Outcome(String verdict, String reason) {
    }

    private Verdicts() {
    }

    /**
     * {@code differences} as they are, after copying the reports under {@code dir} to
     * {@code target/e2e-kept/NAME-TIME/} when there are any: a test that compares runs on a loaded host keeps the
     * evidence of a difference (frames, timestamps, the harness's lateness notes) for whoever reads the failure.
     */
    static List<String> kept(final List<String> differences, final Path dir, final String name) throws IOException {
        if (differences.isEmpty()) {
            return differences;
        }
        final Path to = Path.of("target", "e2e-kept", name + "-" + System.currentTimeMillis()).toAbsolutePath();
        try (Stream<Path> files = Files.walk(dir)) {
            for (final Path file : (Iterable<Path>) files::iterator) {
                final Path target = to.resolve(dir.relativize(file).toString());
                if (Files.isDirectory(file)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(file, target);
                }
            }
        }
        final List<String> out = new ArrayList<>(differences);
        out.add("(reports kept in " + to + ")");
        return out;
    }

    /** Every case of {@code dir/report.json}, in report order. */
    static Map<String, Outcome> read(final Path dir) throws IOException {
        final JsonNode report = new ObjectMapper().readTree(dir.resolve("report.json").toFile());
        final Map<String, Outcome> out = new LinkedHashMap<>();
        for (final JsonNode c : report.path("cases")) {
            out.put(c.path("id").asText(), new Outcome(c.path("verdict").asText(), c.path("reason").asText()));
        }
        return out;
    }

    /**
     * Whether {@code outcome} is no verdict because the run's timeline was disturbed on a loaded host: the harness was
     * late beyond the run's tolerance, the device reported that it was (or that its capture lost frames), or the
     * harness's own evidence was incomplete, in every one of the case's runs. Such a case says nothing about the
     * device, and the run says conformance cannot be claimed; it is not a different verdict.
     */
    static boolean disturbed(final Outcome outcome) {
        return "INCONCLUSIVE".equals(outcome.verdict()) && (outcome.reason().contains("the harness was late beyond "
            + "the run's tolerance") || outcome.reason().contains("the device reports that")
            || outcome.reason().startsWith("the harness's own evidence was incomplete"));
    }

    /** The cases of {@code actual} that are {@link #disturbed}, one line each. */
    static List<String> disturbedCases(final Map<String, Outcome> actual) {
        final List<String> out = new ArrayList<>();
        actual.forEach((id, outcome) -> {
            if (disturbed(outcome)) {
                out.add(id + ": " + outcome.reason());
            }
        });
        return out;
    }

    /**
     * The differences between {@code actual} and {@code expected}, one line each; a case of {@code actual} that is
     * NOT_APPLICABLE for a reason {@code excused} accepts is not a difference.
     */
    static List<String> differences(final Map<String, Outcome> expected, final Map<String, Outcome> actual,
                                    final Predicate<String> excused) {
        return differences(expected, actual, excused, false);
    }

    /**
     * As {@link #differences(Map, Map, Predicate)}; for a run over a live link ({@code live}) a case of {@code actual}
     * that is {@link #disturbed} is not a difference either (callers bound how many they accept with
     * {@link #disturbedCases}).
     */
    static List<String> differences(final Map<String, Outcome> expected, final Map<String, Outcome> actual,
                                    final Predicate<String> excused, final boolean live) {
        final List<String> out = new ArrayList<>();
        for (final Map.Entry<String, Outcome> entry : expected.entrySet()) {
            final Outcome got = actual.get(entry.getKey());
            if (got == null) {
                out.add(entry.getKey() + ": missing from the report");
            } else if (!got.verdict().equals(entry.getValue().verdict())
                && !("NOT_APPLICABLE".equals(got.verdict()) && excused.test(got.reason()))
                && !(live && disturbed(got))) {
                out.add(entry.getKey() + ": " + got.verdict() + " (" + got.reason() + "), in process "
                    + entry.getValue().verdict() + " (" + entry.getValue().reason() + ")");
            }
        }
        for (final String id : actual.keySet()) {
            if (!expected.containsKey(id)) {
                out.add(id + ": not in the in-process run");
            }
        }
        return out;
    }
}
