package org.metaroce.mrct.harness.blame;

/**
 * The rule a failure blames: the rule that governs the field that was wrong, not merely the first rule the failing case
 * cites. Failures with the same cause share a root cause and are grouped in the reports.
 *
 * @param rule the blamed rule ({@code MR-ORD-002})
 * @param field the field (or counter, completion field, memory region) whose value broke it; empty when a frame is
 *     missing or unexpected as a whole
 * @param pattern the failure's shape in a few words, without values that differ from case to case
 *     ({@code "sacketh.bitmap lacks PSNs that arrived in the window"}); failures with equal rule, field and pattern are
 *     one root cause
 * @param basis what the blame rests on ({@link Basis})
 */
public record Cause(String rule, String field, String pattern, Basis basis) {
    /** How a cause was found, strongest first. */
    public enum Basis {
        /** A check of the engine (transmit rules, requester checker, rate checks) named the rule itself. */
        CHECK("named by the check that failed"),
        /** The harness's own model of the packets it sent told which field is wrong and why. */
        MODEL("from the harness's model of the packets it sent"),
        /** The device's counters told how it handled the packets. */
        COUNTERS("from the device's counters"),
        /** The field that differed, through the table of the rules governing each field. */
        FIELD("from the rule governing the field"),
        /** Nothing better: the case's first rule. */
        CASE("the failing case's first rule");

        private final String text;

        Basis(final String text) {
            this.text = text;
        }

        /** The basis as a phrase for reports. */
        public String text() {
            return text;
        }
    }

    public Cause {
        field = field == null ? "" : field;
        pattern = pattern == null ? "" : pattern;
    }

    /** The root-cause key: rule, field and pattern. */
    public String key() {
        return rule + " " + field + " " + pattern;
    }
}
