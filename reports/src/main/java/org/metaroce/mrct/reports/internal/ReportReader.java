package org.metaroce.mrct.reports.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.metaroce.mrct.harness.result.Verdict;
import org.metaroce.mrct.reports.ReportReadException;

/** Reads what a comparison of runs needs from a {@code report.json}: the verdict of every case, checked. */
public final class ReportReader {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private ReportReader() {
    }

    /**
     * The verdicts of one report.
     *
     * @param file the file as given
     * @param complete whether the report says the run was complete
     * @param verdicts case ID to verdict, in report order
     */
    public record Verdicts(String file, boolean complete, Map<String, Verdict> verdicts) {
    }

    /** Reads {@code path}, which must be a version-1 mrct report. */
    public static Verdicts read(final Path path) throws ReportReadException {
        final String file = path.toString();
        final JsonNode root;
        try {
            root = MAPPER.readTree(Files.readAllBytes(path));
        } catch (NoSuchFileException e) {
            throw new ReportReadException(file, "no such file", e);
        } catch (JsonProcessingException e) {
            final String where = e.getLocation() == null ? "" : "line " + e.getLocation().getLineNr() + ", column "
                + e.getLocation().getColumnNr() + ": ";
            throw new ReportReadException(file, where + "not valid JSON: " + e.getOriginalMessage(), e);
        } catch (IOException e) {
            throw new ReportReadException(file, "cannot read: " + e, e);
        }
        if (root == null || !root.isObject()) {
            throw new ReportReadException(file, "not an mrct report (the document is not a JSON object)");
        }
        if (!JsonReport.FORMAT.equals(root.path("format").asText(null))) {
            throw new ReportReadException(file, "not an mrct report (/format is not \"" + JsonReport.FORMAT + "\")");
        }
        if (root.path("version").asInt(-1) != JsonReport.VERSION) {
            throw new ReportReadException(file, "report schema version " + root.path("version") + " is not supported"
                + " (this mrct reads version " + JsonReport.VERSION + ")");
        }
        final JsonNode cases = root.path("cases");
        if (!cases.isArray()) {
            throw new ReportReadException(file, "/cases is missing or not an array");
        }
        final Map<String, Verdict> verdicts = new LinkedHashMap<>();
        for (int i = 0; i < cases.size(); i++) {
            final JsonNode item = cases.get(i);
            final JsonNode id = item.path("id");
            if (!id.isTextual()) {
                throw new ReportReadException(file, "/cases/" + i + "/id is missing or not a string");
            }
            final JsonNode verdictNode = item.path("verdict");
            final Verdict verdict = verdictNode.isTextual() ? BaselineReader.verdict(verdictNode.asText()) : null;
            if (verdict == null || !verdict.name().equals(verdictNode.asText())) {
                throw new ReportReadException(file, "/cases/" + i + "/verdict of " + id.asText() + " is "
                    + verdictNode + ", not one of " + java.util.List.of(Verdict.values()));
            }
            if (verdicts.putIfAbsent(id.asText(), verdict) != null) {
                throw new ReportReadException(file, "/cases/" + i + ": case " + id.asText() + " appears twice");
            }
        }
        return new Verdicts(file, root.path("complete").asBoolean(false), verdicts);
    }
}
