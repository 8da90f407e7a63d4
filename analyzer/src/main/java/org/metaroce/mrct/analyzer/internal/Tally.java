package org.metaroce.mrct.analyzer.internal;

import java.util.ArrayList;
import java.util.List;

/**
 * What one check found on one connection: how many violations and doubts, the first few in full (with copies of their
 * frames) and a bounded list of one-line mentions of the next ones, so that a device breaking a rule on every frame of
 * a huge capture costs counts, not memory.
 */
final class Tally {
    /** Findings of each kind kept with their frames. */
    static final int KEPT = 3;
    /** Further findings mentioned in one line each. */
    static final int MENTIONED = 20;

    final Check check;
    long violations;
    long doubts;
    final List<Finding> kept = new ArrayList<>();
    final List<String> mentioned = new ArrayList<>();
    private int keptViolations;
    private int keptDoubts;

    Tally(final Check check) {
        this.check = check;
    }

    /** True when a finding of this kind would be kept in full (so its frames are worth copying). */
    boolean keeps(final boolean violation) {
        return violation ? keptViolations < KEPT : keptDoubts < KEPT;
    }

    /** True when a finding of this kind would at least be mentioned. */
    boolean mentions(final boolean violation) {
        return keeps(violation) || mentioned.size() < MENTIONED;
    }

    void add(final Finding finding) {
        count(finding.violation());
        if (finding.violation() ? keptViolations < KEPT : keptDoubts < KEPT) {
            kept.add(finding);
            if (finding.violation()) {
                keptViolations++;
            } else {
                keptDoubts++;
            }
        } else if (mentioned.size() < MENTIONED) {
            mentioned.add((finding.violation() ? "violation: " : "inconclusive: ") + finding.message());
        }
    }

    void count(final boolean violation) {
        if (violation) {
            violations++;
        } else {
            doubts++;
        }
    }

    /** Adds another tally of the same check (two half-connections merged). */
    void merge(final Tally other) {
        violations += other.violations;
        doubts += other.doubts;
        for (final Finding finding : other.kept) {
            if (finding.violation() ? keptViolations < KEPT : keptDoubts < KEPT) {
                kept.add(finding);
                if (finding.violation()) {
                    keptViolations++;
                } else {
                    keptDoubts++;
                }
            } else if (mentioned.size() < MENTIONED) {
                mentioned.add((finding.violation() ? "violation: " : "inconclusive: ") + finding.message());
            }
        }
        for (final String line : other.mentioned) {
            if (mentioned.size() < MENTIONED) {
                mentioned.add(line);
            }
        }
    }
}
