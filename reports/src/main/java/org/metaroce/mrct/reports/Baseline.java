package org.metaroce.mrct.reports;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.metaroce.mrct.harness.result.BaselineCheck;
import org.metaroce.mrct.harness.result.BaselineComparison;
import org.metaroce.mrct.harness.result.BaselineEntry;
import org.metaroce.mrct.harness.result.CaseResult;
import org.metaroce.mrct.harness.result.Verdict;
import org.metaroce.mrct.reports.internal.BaselineReader;

/**
 * Known failures a run is compared with, so that CI gates only on new ones. A baseline file is a YAML or JSON list:
 *
 * <pre>
 * - case: ORD-004
 *   verdict: FAIL
 *   reason: firmware 1.2 acknowledges the last PSN twice (vendor ticket 1234)
 * - case: PLC-003[pmtu=256]
 *   verdict: ERROR
 *   reason: the adapter cannot set a 256-byte MTU
 * </pre>
 *
 * <p>An entry names a case with its parameter row ({@code PLC-003[pmtu=256]}), or without one ({@code PLC-003}) to
 * cover every row of a table case; an entry for the exact row wins over one for the whole case.
 */
public final class Baseline {
    private final String source;
    private final List<BaselineEntry> entries;
    private final Map<String, BaselineEntry> byCase;

    private Baseline(final String source, final List<BaselineEntry> entries) {
        this.source = source;
        this.entries = List.copyOf(entries);
        this.byCase = new LinkedHashMap<>();
        for (final BaselineEntry entry : this.entries) {
            if (byCase.putIfAbsent(entry.caseId(), entry) != null) {
                throw new IllegalArgumentException("duplicate case " + entry.caseId() + " in baseline " + source);
            }
        }
    }

    /**
     * Reads a baseline file ({@code .json} as JSON, anything else as YAML).
     *
     * @throws BaselineException listing every problem with {@code file:line}: unknown verdict, duplicate case,
     *     missing or unknown key, malformed file, unreadable file
     */
    public static Baseline load(final Path file) throws BaselineException {
        final BaselineReader.Result result = BaselineReader.read(file);
        if (!result.problems().isEmpty()) {
            throw new BaselineException(file.toString(), result.problems());
        }
        return new Baseline(file.toString(), result.entries());
    }

    /** A baseline from entries (case IDs must be unique). */
    public static Baseline of(final String source, final List<BaselineEntry> entries) {
        return new Baseline(source, entries);
    }

    /** A baseline accepting every failing case of {@code results} as it failed, with its reason. */
    public static Baseline ofFailures(final String source, final List<CaseResult> results, final boolean strict) {
        final List<BaselineEntry> entries = new ArrayList<>();
        for (final CaseResult result : results) {
            if (failing(result.verdict(), strict)) {
                entries.add(new BaselineEntry(result.id(), result.verdict(), result.reason()));
            }
        }
        return new Baseline(source, entries);
    }

    /** Where the baseline came from (the file name as given). */
    public String source() {
        return source;
    }

    /** The entries in file order. */
    public List<BaselineEntry> entries() {
        return entries;
    }

    /**
     * Compares a run with this baseline. Failing verdicts are FAIL and ERROR, and WARN when {@code strict}.
     * Newly failing: failing cases the baseline does not list with that verdict. Newly passing: cases the baseline
     * lists (with another verdict than PASS) that now PASS. Known: cases whose verdict is the one listed. Stale:
     * entries that match no case of the run (the case was renamed, removed or not selected). Lists follow run
     * order, stale entries file order.
     */
    public BaselineComparison compare(final List<CaseResult> results, final boolean strict) {
        final BaselineCheck check = check(strict);
        results.forEach(check::add);
        return check.comparison();
    }

    /** The same comparison case by case, as a run finishes them ({@link #compare}); keeps IDs only. */
    public BaselineCheck check(final boolean strict) {
        return new BaselineCheck() {
            private final List<String> newlyFailing = new ArrayList<>();
            private final List<String> newlyPassing = new ArrayList<>();
            private final List<String> known = new ArrayList<>();
            private final Set<String> matched = new HashSet<>();

            @Override
            public boolean add(final CaseResult result) {
                final BaselineEntry entry = entryFor(result);
                if (entry != null) {
                    matched.add(entry.caseId());
                }
                final Verdict verdict = result.verdict();
                if (entry != null && entry.verdict() == verdict && verdict != Verdict.PASS) {
                    known.add(result.id());
                } else if (failing(verdict, strict)) {
                    newlyFailing.add(result.id());
                    return true;
                } else if (verdict == Verdict.PASS && entry != null) {
                    newlyPassing.add(result.id());
                }
                return false;
            }

            @Override
            public BaselineComparison comparison() {
                final List<String> stale = new ArrayList<>();
                for (final BaselineEntry entry : entries) {
                    if (!matched.contains(entry.caseId())) {
                        stale.add(entry.caseId());
                    }
                }
                return new BaselineComparison(source, newlyFailing, newlyPassing, stale, known);
            }
        };
    }

    /** The entry covering {@code result}: its exact ID first, then its case ID without the parameter row. */
    public BaselineEntry entryFor(final CaseResult result) {
        final BaselineEntry exact = byCase.get(result.id());
        return exact != null ? exact : byCase.get(result.caseId());
    }

    /** The baseline as YAML, in the format {@link #load} reads. */
    public String toYaml() {
        final List<Map<String, String>> list = new ArrayList<>();
        for (final BaselineEntry entry : entries) {
            final Map<String, String> map = new LinkedHashMap<>();
            map.put("case", entry.caseId());
            map.put("verdict", entry.verdict().name());
            map.put("reason", entry.reason());
            list.add(map);
        }
        try {
            return YAMLMapper.builder().disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER).build()
                .writeValueAsString(list);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static boolean failing(final Verdict verdict, final boolean strict) {
        return verdict == Verdict.FAIL || verdict == Verdict.ERROR || strict && verdict == Verdict.WARN;
    }
}
