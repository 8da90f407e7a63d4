package org.metaroce.mrct.cases;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;
import org.metaroce.mrct.harness.engine.Runner;
import org.metaroce.mrct.harness.result.CaseResult;
import org.metaroce.mrct.harness.result.Verdict;
import org.metaroce.mrct.reference.Fault;

/**
 * A failure blames the rule that governs what was wrong: with each fault of the reference NIC on, the whole suite of
 * written cases runs and at least 90 % of its FAIL cases must name the fault's own rule in {@code failure.rule} (the
 * rule the fault breaks, {@link Fault#rule()}), not merely cite it among the case's rules.
 *
 * <p>Faults whose failures blame is not yet good enough for are listed in {@link #KNOWN_GAPS} with the share measured
 * when they were listed: the test holds them to that floor (a change that blames worse fails) and fails too when one
 * reaches 90 %, so that it is taken off the list. The list is the open work of issue 8.
 */
class FaultBlameTest {
    private static final double GOAL = 0.90;

    /** Faults below the goal today, with the share of their FAIL cases blaming their rule (measured, a floor). */
    private static final Map<Fault, Double> KNOWN_GAPS = knownGaps();

    private static Map<Fault, Double> knownGaps() {
        final Map<Fault, Double> gaps = new EnumMap<>(Fault.class);
        // measured on 2026-12-01 over the written cases (seed 20261129); each a floor, none may fall below it
        // complete-before-ack: 5 of 38, then 5 of 39 with the v1.1 cases (one more case fails, blaming another rule)
        gaps.put(Fault.COMPLETE_BEFORE_ACK, 5.0 / 39);
        gaps.put(Fault.CONSTANT_SPORT_WITH_SPRAY, 2.0 / 3); // constant-sport-with-spray: 2 of 3
        gaps.put(Fault.DUPLICATE_ATOMIC_EXECUTED, 3.0 / 4); // duplicate-atomic-executed: 3 of 4
        gaps.put(Fault.ICRC_NOT_CHECKED, 3.0 / 5); // icrc-not-checked: 3 of 5
        gaps.put(Fault.IMMEDIATE_BEFORE_DATA, 1.0 / 2); // immediate-before-data: 1 of 2
        gaps.put(Fault.NO_ACK_ON_ACKREQ, 75.0 / 84); // no-ack-on-ackreq: 75 of 84
        gaps.put(Fault.NO_ACKREQ, 126.0 / 142); // no-ackreq: 126 of 142
        gaps.put(Fault.NO_ALPHA_DECAY, 0.0 / 2); // no-alpha-decay: 0 of 2
        // no-cnp: 17 of 19, then 19 of 23 with the v1.1 cases: the requester-side CC-004/CC-009 cases rightly blame
        // MR-CC-004 (the fault's rule is the responder's MR-CC-003)
        gaps.put(Fault.NO_CNP, 19.0 / 23);
        gaps.put(Fault.NO_RATE_CUT, 16.0 / 19); // no-rate-cut: 16 of 19
        gaps.put(Fault.PKEY_NOT_CHECKED, 9.0 / 13); // pkey-not-checked: 9 of 13
        gaps.put(Fault.PSN_WRAP_BROKEN, 8.0 / 9); // psn-wrap-broken: 8 of 9
        gaps.put(Fault.READ_BEFORE_LOWER_PSNS, 7.0 / 14); // read-before-lower-psns: 7 of 14
        gaps.put(Fault.RKEY_NOT_CHECKED, 6.0 / 9); // rkey-not-checked: 6 of 9
        gaps.put(Fault.RTO_HIGH_ALWAYS, 19.0 / 27); // rto-high-always: 19 of 27
        gaps.put(Fault.UNPACED_CNP, 2.0 / 3); // unpaced-cnp: 2 of 3
        gaps.put(Fault.WRONG_CUT_FACTOR, 14.0 / 16); // wrong-cut-factor: 14 of 16
        return gaps;
    }

    @TestFactory
    Stream<DynamicTest> everyFaultsFailuresBlameItsRule() throws Exception {
        final Suite suite = new Suite();
        final List<Runner.Planned> plan = Runner.plan(suite.cases);
        final Map<Fault, Future<List<CaseResult>>> runs = new EnumMap<>(Fault.class);
        // the faults are independent runs against their own reference NIC: two at a time on a two-core machine
        final ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            for (final Fault fault : Fault.values()) {
                runs.put(fault, pool.submit(() -> {
                    final Runner runner = suite.runner(Set.of(fault));
                    final List<CaseResult> failed = new ArrayList<>();
                    for (final Runner.Planned planned : plan) {
                        final CaseResult result = runner.runOne(planned);
                        if (result.verdict() == Verdict.FAIL) {
                            failed.add(result);
                        }
                    }
                    return failed;
                }));
            }
            final List<DynamicTest> tests = new ArrayList<>();
            for (final Fault fault : Fault.values()) {
                final List<CaseResult> failed = runs.get(fault).get();
                tests.add(DynamicTest.dynamicTest(fault.label() + " failures blame " + fault.rule(), () -> {
                    assertThat(failed).as("FAIL cases with fault %s", fault.label()).isNotEmpty();
                    final long blamed = failed.stream().filter(r -> r.failure() != null
                        && fault.rule().equals(r.failure().rule())).count();
                    final double share = (double) blamed / failed.size();
                    final String others = failed.stream().filter(r -> r.failure() == null
                        || !fault.rule().equals(r.failure().rule())).limit(5)
                        .map(r -> r.id() + " -> " + (r.failure() == null ? "no failure" : r.failure().rootCause()))
                        .toList().toString();
                    final Double floor = KNOWN_GAPS.get(fault);
                    if (floor == null) {
                        assertThat(share).as("%s: %d of %d FAIL cases blame %s; others: %s", fault.label(), blamed,
                            failed.size(), fault.rule(), others).isGreaterThanOrEqualTo(GOAL);
                    } else {
                        assertThat(share).as("%s (a known gap): %d of %d FAIL cases blame %s, below its floor %.2f; "
                            + "others: %s", fault.label(), blamed, failed.size(), fault.rule(), floor, others)
                            .isGreaterThanOrEqualTo(floor);
                        assertThat(share).as("%s now blames its rule in %d of %d FAIL cases: take it off KNOWN_GAPS",
                            fault.label(), blamed, failed.size()).isLessThan(GOAL);
                    }
                }));
            }
            return tests.stream();
        } finally {
            pool.shutdownNow();
        }
    }
}
