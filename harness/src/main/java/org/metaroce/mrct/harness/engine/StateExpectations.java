package org.metaroce.mrct.harness.engine;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.metaroce.mrct.harness.cases.CompletionTemplate;
import org.metaroce.mrct.harness.cases.Expr;
import org.metaroce.mrct.harness.cases.Step;
import org.metaroce.mrct.harness.result.FieldDiff;
import org.metaroce.mrct.harness.spec.Specification;
import org.metaroce.mrct.spi.Completion;
import org.metaroce.mrct.spi.CompletionStatus;
import org.metaroce.mrct.spi.ControlPlane;

/**
 * The steps that check what the device holds rather than what it sends: {@code expect_memory} (region content against
 * a pattern, the model or the content after setup), {@code expect_completions} (in order, against templates or the
 * model) and {@code expect_counters} (differences since the case started).
 */
final class StateExpectations {
    private final ControlPlane control;
    private final Names names;
    private final CaseWorld world;
    private final Specification spec;
    private final Map<String, Long> countersAtStart;

    StateExpectations(final ControlPlane control, final Names names, final CaseWorld world, final Specification spec,
                      final Map<String, Long> countersAtStart) {
        this.control = control;
        this.names = names;
        this.world = world;
        this.spec = spec;
        this.countersAtStart = countersAtStart;
    }

    void expectMemory(final Step.ExpectMemory e) {
        final Region region = world.region(e.region());
        final long offset = e.offset() == null ? 0 : names.eval(e.offset());
        final int length = e.length() != null ? (int) names.eval(e.length())
            : e.equals() != null && e.equals().length() != null ? (int) names.eval(e.equals().length())
            : (int) (region.mr.length() - offset);
        final byte[] expected;
        if (e.model()) {
            expected = Arrays.copyOfRange(region.model, (int) offset, (int) offset + length);
        } else if (e.untouched()) {
            expected = Arrays.copyOfRange(region.initial, (int) offset, (int) offset + length);
        } else {
            expected = e.equals().pattern().bytes(e.equals().offset() == null ? 0 : names.eval(e.equals().offset()),
                length, names.resolver());
        }
        final byte[] actual = world.controlOf(region, control).readMemory(region.mr.va() + offset, length);
        if (!Arrays.equals(expected, actual)) {
            int first = 0;
            while (first < length && expected[first] == actual[first]) {
                first++;
            }
            int last = length - 1;
            while (last > first && expected[last] == actual[last]) {
                last--;
            }
            throw new StepFailure("memory of " + region.name + " differs at offsets " + (offset + first) + ".."
                + (offset + last) + " (" + (last - first + 1) + " bytes span): expected "
                + hexWindow(expected, first) + ", actual " + hexWindow(actual, first), -1,
                List.of(new FieldDiff(region.name + "[" + (offset + first) + "]",
                    FrameCheck.number(expected[first] & 0xFF), FrameCheck.number(actual[first] & 0xFF))), null, null);
        }
    }

    private static String hexWindow(final byte[] bytes, final int from) {
        final StringBuilder out = new StringBuilder();
        for (int i = from; i < Math.min(bytes.length, from + 16); i++) {
            out.append(String.format(Locale.ROOT, "%02x", bytes[i] & 0xFF));
        }
        return out.append(bytes.length > from + 16 ? "..." : "").toString();
    }

    void expectCompletions(final Step.ExpectCompletions e) {
        final Connection c = world.connection(e.connection());
        final List<Completion> actual = new ArrayList<>();
        while (true) {
            final List<Completion> batch = control.pollCompletions(c.deviceQpn, 64);
            if (batch.isEmpty()) {
                break;
            }
            actual.addAll(batch);
        }
        final RequesterChecker checker = c.requester();
        for (int i = 0; checker != null && i < actual.size(); i++) {
            final StepFailure early = checker.completed(actual.get(i));
            if (early != null) {
                throw early;
            }
        }
        final List<CompletionTemplate> expected = new ArrayList<>(e.entries());
        if (e.model()) {
            for (final ResponderModel.ExpectedCompletion m : c.model().completions()) {
                expected.add(new CompletionTemplate(m.opcode(), CompletionStatus.SUCCESS, Expr.of(m.length()),
                    m.immediate() == null ? null : Expr.of(Integer.toUnsignedLong(m.immediate())),
                    m.invalidatedRkey() == null ? null : Expr.of(Integer.toUnsignedLong(m.invalidatedRkey())), null,
                    null, e.line()));
            }
        }
        for (int i = 0; i < expected.size(); i++) {
            if (i >= actual.size()) {
                throw new StepFailure("completion " + (i + 1) + " of " + expected.size() + " is missing on "
                    + c.name + " (got " + actual.size() + ")", -1, List.of(new FieldDiff("completions",
                        Integer.toString(expected.size()), Integer.toString(actual.size()))), null, null);
            }
            final List<FieldDiff> diffs = completionDiffs(expected.get(i), actual.get(i));
            if (!diffs.isEmpty()) {
                throw new StepFailure("completion " + (i + 1) + " on " + c.name + ": " + diffs, -1, diffs, null,
                    actual.get(i).toString());
            }
        }
        if (e.exact() && actual.size() > expected.size()) {
            throw new StepFailure(actual.size() - expected.size() + " unexpected completion(s) on " + c.name
                + ", first: " + actual.get(expected.size()), -1, List.of(new FieldDiff("completions",
                    Integer.toString(expected.size()), Integer.toString(actual.size()))), null, null);
        }
    }

    private List<FieldDiff> completionDiffs(final CompletionTemplate expected, final Completion actual) {
        final List<FieldDiff> diffs = new ArrayList<>();
        if (expected.opcode() != null && expected.opcode() != actual.opcode()) {
            diffs.add(new FieldDiff("opcode", expected.opcode().name(), actual.opcode().name()));
        }
        if (expected.status() != null && expected.status() != actual.status()) {
            diffs.add(new FieldDiff("status", expected.status().name(), actual.status().name()));
        }
        if (expected.length() != null && names.eval(expected.length()) != actual.byteLength()) {
            diffs.add(new FieldDiff("length", FrameCheck.number(names.eval(expected.length())),
                FrameCheck.number(actual.byteLength())));
        }
        if (expected.immediate() != null) {
            final long want = names.eval(expected.immediate()) & 0xFFFF_FFFFL;
            if (!actual.hasImmediate() || Integer.toUnsignedLong(actual.immediate()) != want) {
                diffs.add(new FieldDiff("immediate", FrameCheck.number(want), actual.hasImmediate()
                    ? FrameCheck.number(Integer.toUnsignedLong(actual.immediate())) : "none"));
            }
        }
        if (expected.invalidated() != null) {
            final long want = names.eval(expected.invalidated()) & 0xFFFF_FFFFL;
            if (!actual.hasInvalidate() || Integer.toUnsignedLong(actual.invalidatedRkey()) != want) {
                diffs.add(new FieldDiff("invalidated_rkey", FrameCheck.number(want), actual.hasInvalidate()
                    ? FrameCheck.number(Integer.toUnsignedLong(actual.invalidatedRkey())) : "none"));
            }
        }
        if (expected.solicited() != null && expected.solicited() != actual.solicited()) {
            diffs.add(new FieldDiff("solicited", expected.solicited().toString(),
                Boolean.toString(actual.solicited())));
        }
        if (expected.wrId() != null && names.eval(expected.wrId()) != actual.wrId()) {
            diffs.add(new FieldDiff("wr_id", FrameCheck.number(names.eval(expected.wrId())),
                FrameCheck.number(actual.wrId())));
        }
        return diffs;
    }

    void expectCounters(final Step.ExpectCounters e) {
        final Map<String, Long> now = e.connection() == null ? control.counters()
            : control.qpCounters(world.connection(e.connection()).deviceQpn);
        final Map<String, Long> atStart = e.connection() == null ? countersAtStart : Map.of();
        final List<FieldDiff> diffs = new ArrayList<>();
        for (final Map.Entry<String, Expr> entry : e.values().entrySet()) {
            final long expected = names.eval(entry.getValue());
            final Long value = now.get(entry.getKey());
            if (value == null) {
                diffs.add(new FieldDiff(entry.getKey(), "+" + expected, "not kept by the device"));
                continue;
            }
            final long delta = value - atStart.getOrDefault(entry.getKey(), 0L);
            if (delta != expected) {
                diffs.add(new FieldDiff(entry.getKey(), "+" + expected, "+" + delta));
            }
        }
        if (e.exact()) {
            for (final Map.Entry<String, Long> entry : now.entrySet()) {
                if (e.values().containsKey(entry.getKey())) {
                    continue;
                }
                final long delta = entry.getValue() - atStart.getOrDefault(entry.getKey(), 0L);
                if (delta != 0 && isSpecDropCounter(entry.getKey())) {
                    diffs.add(new FieldDiff(entry.getKey(), "+0 (unchanged)", "+" + delta));
                }
            }
        }
        if (!diffs.isEmpty()) {
            throw new StepFailure("counters disagree with what the harness sent: " + diffs, -1, diffs, null, null);
        }
    }

    private boolean isSpecDropCounter(final String name) {
        return spec.counters().stream().anyMatch(c -> c.name().equals(name) && c.name().startsWith("drop_"));
    }
}
