package org.metaroce.mrct.oracle;

import java.util.Objects;

/**
 * One field of one frame that breaks a rule: the judgement of the oracle, the same whoever asks (the live engine or
 * {@code mrct analyze}).
 *
 * @param rule     the rule ID ({@code MR-WIRE-014})
 * @param field    the field, by its decoder name where it has one ({@code icrc}, {@code ip.ecn}, {@code bth.pkey})
 * @param expected what the rule wants there, in words and values
 * @param actual   what the frame carries
 * @param frame    the index or number of the frame in its stream or capture, as the caller numbers them
 * @param basis    what the judgement rests on besides the frame's own bytes
 */
public record Finding(String rule, String field, String expected, String actual, long frame, Basis basis) {
    public Finding {
        Objects.requireNonNull(rule, "rule");
        Objects.requireNonNull(field, "field");
        Objects.requireNonNull(expected, "expected");
        Objects.requireNonNull(actual, "actual");
        Objects.requireNonNull(basis, "basis");
    }

    @Override
    public String toString() {
        return rule + " " + field + ": expected " + expected + ", actual " + actual + " (frame " + frame + ", "
            + basis + ")";
    }
}
