package org.metaroce.mrct.reports.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.util.Collection;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import org.metaroce.mrct.harness.result.BaselineComparison;
import org.metaroce.mrct.harness.result.CaseResult;
import org.metaroce.mrct.harness.result.ControlRecord;
import org.metaroce.mrct.harness.result.Failure;
import org.metaroce.mrct.harness.result.FieldDiff;
import org.metaroce.mrct.harness.result.FrameRecord;
import org.metaroce.mrct.harness.result.MemoryDigest;
import org.metaroce.mrct.harness.result.NotChecked;
import org.metaroce.mrct.harness.result.RuleVerdict;
import org.metaroce.mrct.harness.result.RunInfo;
import org.metaroce.mrct.spi.Endpoints;
import org.metaroce.mrct.harness.result.Verdict;
import org.metaroce.mrct.wire.MacAddress;

/**
 * The JSON form of the result model (schema {@code reports/schema/report-v1.schema.json}). Key order is fixed by
 * this class; maps without an order of their own (parameters, series) are written with sorted keys, so the same
 * results always give the same bytes. 64-bit values that JavaScript would round (the seed) are decimal strings.
 */
public final class JsonModel {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private JsonModel() {
    }

    /** The {@code run} object: every component of {@link RunInfo}. */
    public static ObjectNode runInfo(final RunInfo info) {
        final ObjectNode run = NODES.objectNode();
        run.put("suiteVersion", text(info.suiteVersion()));
        run.put("specVersion", text(info.specVersion()));
        run.put("adapter", text(info.adapter()));
        run.put("vendor", text(info.vendor()));
        run.put("model", text(info.model()));
        run.put("firmware", text(info.firmware()));
        run.put("profile", text(info.profile()));
        run.put("profileHash", text(info.profileHash()));
        run.set("pics", strings(info.pics()));
        run.set("parameters", value(info.parameters()));
        run.put("seed", Long.toString(info.seed()));
        run.put("strict", info.strict());
        run.put("fault", text(info.fault()));
        run.set("selection", strings(info.selection()));
        run.put("caseCount", info.caseCount());
        run.put("start", instant(info.start()));
        run.set("capabilities", strings(info.capabilities()));
        run.set("endpoints", endpoints(info.endpoints()));
        run.set("timing", timing(info.timing()));
        return run;
    }

    /** The timing options of a run, or JSON null. */
    public static JsonNode timing(final RunInfo.Timing timing) {
        if (timing == null) {
            return NODES.nullNode();
        }
        final ObjectNode node = NODES.objectNode();
        node.put("expectTimeoutNs", timing.expectTimeoutNs());
        node.put("toleranceNs", timing.toleranceNs());
        node.put("tolerancePercent", timing.tolerancePercent());
        return node;
    }

    /** The link addresses of a run, or JSON null. */
    public static JsonNode endpoints(final Endpoints endpoints) {
        if (endpoints == null) {
            return NODES.nullNode();
        }
        final ObjectNode node = NODES.objectNode();
        node.put("deviceMac", MacAddress.format(endpoints.deviceMac()));
        node.put("deviceIpv4", text(endpoints.deviceIpv4()));
        node.put("deviceIpv6", text(endpoints.deviceIpv6()));
        node.put("harnessMac", MacAddress.format(endpoints.harnessMac()));
        node.put("harnessIpv4", text(endpoints.harnessIpv4()));
        node.put("harnessIpv6", text(endpoints.harnessIpv6()));
        return node;
    }

    /** One case: every component of {@link CaseResult}, every frame, no frame numbers of evidence.pcapng. */
    public static ObjectNode caseResult(final CaseResult result) {
        return caseResult(result, Integer.MAX_VALUE, EvidenceWindow.all(result), -1);
    }

    /**
     * One case, with the frames and control records of {@code window} ({@code evidenceFrames} and
     * {@code controlRecords} count them all, and {@code evidence.pcapng} has them all), at most {@code maxFrameBytes}
     * bytes of each frame in {@code bytes} (a frame cut short also gets {@code bytesLength}, its whole length: the HTML
     * report shows the headers, not whole payloads). {@code pcapngBase} is how many packets {@code evidence.pcapng}
     * held before the case's first frame, or -1 when no evidence file is written: frames then get their number there.
     * A case whose window was cut carries memory contents over {@link MemoryDigest#INLINE_MAX_BYTES} as digests, as
     * {@code evidence.pcapng} does.
     */
    public static ObjectNode caseResult(final CaseResult result, final int maxFrameBytes, final EvidenceWindow window,
                                        final long pcapngBase) {
        final ObjectNode node = NODES.objectNode();
        node.put("id", text(result.id()));
        node.put("caseId", text(result.caseId()));
        node.put("title", text(result.title()));
        node.put("area", text(result.area()));
        node.set("rules", strings(result.rules()));
        node.put("level", result.level() == null ? null : result.level().name());
        node.put("role", result.role() == null ? null : result.role().label());
        node.put("file", text(result.file()));
        node.set("parameters", value(result.parameters()));
        node.put("verdict", verdict(result.verdict()));
        node.put("reason", text(result.reason()));
        node.set("failure", failure(result.failure(), pcapngBase));
        node.put("wallNanos", result.wallNanos());
        node.put("deviceNanos", result.deviceNanos());
        node.put("attempts", result.attempts());
        final ArrayNode evidence = node.putArray("evidence");
        for (final FrameRecord frame : window.frames()) {
            evidence.add(frame(frame, maxFrameBytes, pcapngBase));
        }
        node.put("evidenceFrames", result.evidence().size());
        if (pcapngBase >= 0 && !result.evidence().isEmpty()) {
            final ObjectNode range = node.putObject("pcapngFrames");
            range.put("first", Numbering.pcapngFrame(pcapngBase, 0));
            range.put("last", Numbering.pcapngFrame(pcapngBase, result.evidence().size() - 1));
        } else {
            node.putNull("pcapngFrames");
        }
        node.set("notes", strings(result.notes()));
        final ArrayNode notChecked = node.putArray("notChecked");
        for (final NotChecked skipped : result.notChecked()) {
            notChecked.addObject().put("line", skipped.line()).put("step", text(skipped.step()))
                .put("reason", text(skipped.reason()));
        }
        final ObjectNode series = node.putObject("series");
        for (final Map.Entry<String, List<double[]>> entry : new TreeMap<>(result.series()).entrySet()) {
            final ArrayNode points = series.putArray(text(entry.getKey()));
            for (final double[] point : entry.getValue()) {
                points.add(value(point));
            }
        }
        final ArrayNode control = node.putArray("control");
        final boolean digest = window.cut(result);
        for (final ControlRecord record : window.control()) {
            final ObjectNode call = control(record);
            if (digest) {
                digestMemory(call);
            }
            control.add(call);
        }
        node.put("controlRecords", result.control().size());
        return node;
    }

    /** One control-plane call of a case: what was asked and what the device answered. */
    public static ObjectNode control(final ControlRecord record) {
        final ObjectNode node = NODES.objectNode();
        node.put("index", record.index());
        node.put("timestampNanos", record.timestampNanos());
        node.put("op", text(record.op()));
        node.set("args", value(record.args()));
        node.set("result", value(record.result()));
        // before error, which stays last: readers of evidence.pcapng look for a record ending "error":null}
        node.put("framesBefore", record.framesBefore());
        node.put("error", text(record.error()));
        return node;
    }

    /**
     * One evidence frame, with at most {@code maxBytes} of its bytes, its 1-based step, and its number in
     * evidence.pcapng when {@code pcapngBase} is known (see {@link #caseResult(CaseResult, int, EvidenceWindow, long)}).
     */
    public static ObjectNode frame(final FrameRecord frame, final int maxBytes, final long pcapngBase) {
        final ObjectNode node = NODES.objectNode();
        node.put("index", frame.index());
        number(node, "pcapngFrame", Numbering.pcapngFrame(pcapngBase, frame.index()));
        node.put("direction", frame.direction() == null ? null : frame.direction().name());
        node.put("timestampNanos", frame.timestampNanos());
        final byte[] bytes = frame.bytes() == null ? new byte[0] : frame.bytes();
        if (bytes.length > maxBytes) {
            node.put("bytes", Text.hex(java.util.Arrays.copyOf(bytes, maxBytes)));
            node.put("bytesLength", bytes.length);
        } else {
            node.put("bytes", Text.hex(bytes));
        }
        node.put("step", Numbering.step(frame.step()));
        node.put("note", text(frame.note()));
        node.set("decoded", frame.decoded() == null ? NODES.nullNode() : value(frame.decoded()));
        return node;
    }

    /**
     * A failure, or JSON null: its step 1-based (0 when not tied to one), its frame's index in the case and, when
     * {@code pcapngBase} is known, its number in evidence.pcapng.
     */
    public static JsonNode failure(final Failure failure, final long pcapngBase) {
        if (failure == null) {
            return NODES.nullNode();
        }
        final ObjectNode node = NODES.objectNode();
        node.put("rule", text(failure.rule()));
        node.put("step", Numbering.step(failure.step()));
        node.put("stepDescription", text(failure.stepDescription()));
        node.put("stepLine", failure.stepLine());
        node.put("frame", failure.frame());
        number(node, "pcapngFrame", Numbering.pcapngFrame(pcapngBase, failure.frame()));
        final ArrayNode diffs = node.putArray("diffs");
        for (final FieldDiff diff : failure.diffs()) {
            final ObjectNode d = diffs.addObject();
            d.put("field", text(diff.field()));
            d.put("expected", text(diff.expected()));
            d.put("actual", text(diff.actual()));
        }
        node.put("expectedFrame", text(failure.expectedFrame()));
        node.put("actualFrame", text(failure.actualFrame()));
        node.put("message", text(failure.message()));
        node.put("field", failure.field());
        node.put("cause", failure.cause());
        node.put("basis", failure.basis());
        return node;
    }

    /** {@code name}: {@code value}, or null when it is negative (not known). */
    private static void number(final ObjectNode node, final String name, final long value) {
        if (value < 0) {
            node.putNull(name);
        } else {
            node.put(name, value);
        }
    }

    /**
     * Replaces the memory contents of a {@code writeMemory} or {@code readMemory} record (JSON) larger than
     * {@link MemoryDigest#INLINE_MAX_BYTES} by their digest ({@link MemoryDigest#of}); returns the bytes of a
     * {@code readMemory} answer so digested, else null.
     */
    static byte[] digestMemory(final ObjectNode node) {
        final String op = node.path("op").asText();
        if (op.equals("writeMemory") && node.path("args").path("data").isTextual()) {
            final String hex = node.path("args").path("data").textValue();
            if (MemoryDigest.digested(hex.length() / 2)) {
                ((ObjectNode) node.get("args")).set("data", value(MemoryDigest.of(HexFormat.of().parseHex(hex))));
            }
        } else if (op.equals("readMemory") && node.path("result").isTextual()) {
            final String hex = node.path("result").textValue();
            if (MemoryDigest.digested(hex.length() / 2)) {
                final byte[] bytes = HexFormat.of().parseHex(hex);
                node.set("result", value(MemoryDigest.of(bytes)));
                return bytes;
            }
        }
        return null;
    }

    /** Cases per verdict, every verdict in verdict order. */
    public static ObjectNode counts(final Map<Verdict, Integer> counts) {
        final ObjectNode node = NODES.objectNode();
        for (final Verdict verdict : Verdict.values()) {
            node.put(verdict.name(), counts.getOrDefault(verdict, 0));
        }
        return node;
    }

    /** The rule matrix. */
    public static ArrayNode rules(final List<RuleVerdict> rules) {
        final ArrayNode array = NODES.arrayNode();
        for (final RuleVerdict rule : rules) {
            final ObjectNode node = array.addObject();
            node.put("rule", text(rule.rule()));
            node.put("level", rule.level() == null ? null : rule.level().name());
            node.put("role", rule.role() == null ? null : rule.role().label());
            node.put("applicable", rule.applicable());
            node.set("cases", strings(rule.cases()));
            node.put("verdict", verdict(rule.verdict()));
            node.set("citedBy", strings(rule.citedBy()));
            if (rule.casesNotListed() > 0) {
                node.put("casesNotListed", rule.casesNotListed());
            }
            if (rule.citedByNotListed() > 0) {
                node.put("citedByNotListed", rule.citedByNotListed());
            }
        }
        return array;
    }

    /** The baseline comparison, or JSON null. */
    public static JsonNode baseline(final BaselineComparison baseline) {
        if (baseline == null) {
            return NODES.nullNode();
        }
        final ObjectNode node = NODES.objectNode();
        node.put("baseline", text(baseline.baseline()));
        node.set("newlyFailing", strings(baseline.newlyFailing()));
        node.set("newlyPassing", strings(baseline.newlyPassing()));
        node.set("stale", strings(baseline.stale()));
        node.set("known", strings(baseline.known()));
        return node;
    }

    /** An instant in ISO-8601 (UTC), or null. */
    public static String instant(final Instant instant) {
        return instant == null ? null : instant.toString();
    }

    private static String verdict(final Verdict verdict) {
        return verdict == null ? null : verdict.name();
    }

    private static String text(final String value) {
        return Text.wellFormed(value);
    }

    private static ArrayNode strings(final Collection<String> values) {
        final ArrayNode array = NODES.arrayNode();
        for (final String value : values) {
            array.add(text(value));
        }
        return array;
    }

    /**
     * Any plain value as JSON: maps (sorted by key unless they have an order of their own: {@link LinkedHashMap},
     * {@link SortedMap}), collections, arrays ({@code byte[]} as hex), numbers (non-finite doubles as null), booleans,
     * enums and everything else by {@code toString()}.
     */
    public static JsonNode value(final Object value) {
        if (value == null) {
            return NODES.nullNode();
        }
        if (value instanceof String s) {
            return NODES.textNode(text(s));
        }
        if (value instanceof Boolean b) {
            return NODES.booleanNode(b);
        }
        if (value instanceof Integer || value instanceof Long || value instanceof Short || value instanceof Byte) {
            return NODES.numberNode(((Number) value).longValue());
        }
        if (value instanceof Double || value instanceof Float) {
            return number(((Number) value).doubleValue());
        }
        if (value instanceof BigInteger big) {
            return NODES.numberNode(big);
        }
        if (value instanceof BigDecimal big) {
            return NODES.numberNode(big);
        }
        if (value instanceof Map<?, ?> map) {
            final Map<String, Object> ordered = map instanceof LinkedHashMap || map instanceof SortedMap
                ? new LinkedHashMap<>() : new TreeMap<>();
            for (final Map.Entry<?, ?> entry : map.entrySet()) {
                ordered.put(String.valueOf(entry.getKey()), entry.getValue());
            }
            final ObjectNode node = NODES.objectNode();
            for (final Map.Entry<String, Object> entry : ordered.entrySet()) {
                node.set(text(entry.getKey()), value(entry.getValue()));
            }
            return node;
        }
        if (value instanceof Collection<?> collection) {
            final ArrayNode array = NODES.arrayNode();
            for (final Object item : collection) {
                array.add(value(item));
            }
            return array;
        }
        if (value instanceof byte[] bytes) {
            return NODES.textNode(Text.hex(bytes));
        }
        if (value instanceof double[] doubles) {
            final ArrayNode array = NODES.arrayNode();
            for (final double d : doubles) {
                array.add(number(d));
            }
            return array;
        }
        if (value instanceof long[] longs) {
            final ArrayNode array = NODES.arrayNode();
            for (final long l : longs) {
                array.add(l);
            }
            return array;
        }
        if (value instanceof int[] ints) {
            final ArrayNode array = NODES.arrayNode();
            for (final int i : ints) {
                array.add(i);
            }
            return array;
        }
        if (value instanceof Object[] objects) {
            return value(java.util.Arrays.asList(objects));
        }
        if (value instanceof Enum<?> e) {
            return NODES.textNode(e.name());
        }
        if (value instanceof Instant instant) {
            return NODES.textNode(instant.toString());
        }
        return NODES.textNode(text(value.toString()));
    }

    private static JsonNode number(final double d) {
        return Double.isFinite(d) ? NODES.numberNode(d) : NODES.nullNode();
    }
}
