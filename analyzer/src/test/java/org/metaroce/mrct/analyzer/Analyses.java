package org.metaroce.mrct.analyzer;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.metaroce.mrct.harness.profile.ProfileLoader;
import org.metaroce.mrct.harness.result.CaseResult;
import org.metaroce.mrct.harness.result.RunInfo;
import org.metaroce.mrct.harness.result.RunListener;
import org.metaroce.mrct.harness.result.RunSummary;
import org.metaroce.mrct.harness.result.Verdict;
import org.metaroce.mrct.harness.spec.Specification;
import org.metaroce.mrct.testing.Fixtures;

/** Runs {@link CaptureAnalyzer} on a capture and keeps what it reported. */
final class Analyses {
    static final Specification SPEC = Specification.bundled();

    /** What one analysis reported. */
    record Result(Outcome outcome, RunInfo info, RunSummary summary, List<CaseResult> cases) {
        /** The check cases (not the per-connection summaries). */
        List<CaseResult> checks() {
            return cases.stream().filter(c -> !c.rules().isEmpty()).collect(Collectors.toList());
        }

        List<CaseResult> with(final Verdict verdict) {
            return checks().stream().filter(c -> c.verdict() == verdict).collect(Collectors.toList());
        }

        /** The check cases of a rule. */
        List<CaseResult> of(final String rule) {
            return checks().stream().filter(c -> c.rules().contains(rule)).collect(Collectors.toList());
        }

        /** The one check case of a rule (an assertion error naming the others when there is not exactly one). */
        CaseResult only(final String rule) {
            final List<CaseResult> of = of(rule);
            org.assertj.core.api.Assertions.assertThat(of).as(rule + "\n" + describe()).hasSize(1);
            return of.get(0);
        }

        /** One line per non-passing check, for assertion messages. */
        String describe() {
            final StringBuilder text = new StringBuilder();
            for (final CaseResult c : checks()) {
                if (c.verdict() != Verdict.PASS) {
                    text.append(c.verdict()).append(' ').append(c.id()).append(": ").append(c.reason()).append('\n');
                }
            }
            return text.toString();
        }
    }

    private Analyses() {
    }

    /** The analysis options with the reference NIC's profile (fixtures/profiles/reference.yaml) declared. */
    static CaptureAnalyzer.Options referenceProfile() {
        try {
            return CaptureAnalyzer.Options.defaults().withProfile(ProfileLoader.load(
                Fixtures.fixtures().resolve("profiles/reference.yaml"), SPEC));
        } catch (ProfileLoader.ProfileException e) {
            throw new IllegalStateException(e);
        }
    }

    static Result run(final Path capture, final CaptureAnalyzer.Options options) {
        final List<CaseResult> cases = new ArrayList<>();
        final RunInfo[] info = new RunInfo[1];
        final RunSummary[] summary = new RunSummary[1];
        final Outcome outcome = new CaptureAnalyzer(SPEC, options).analyze(List.of(capture), new RunListener() {
            @Override
            public void runStarted(final RunInfo runInfo) {
                info[0] = runInfo;
            }

            @Override
            public void caseFinished(final CaseResult result) {
                cases.add(result);
            }

            @Override
            public void runFinished(final RunInfo runInfo, final RunSummary runSummary) {
                summary[0] = runSummary;
            }
        });
        return new Result(outcome, info[0], summary[0], cases);
    }

    static Result run(final Path capture) {
        return run(capture, CaptureAnalyzer.Options.defaults());
    }
}
