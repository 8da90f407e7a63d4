package org.metaroce.mrct.analyzer.internal;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import org.metaroce.mrct.harness.result.EvidenceComment;
import org.metaroce.mrct.oracle.TimingTolerance;

/**
 * What the analysis takes from the section comment of an mrct evidence file (reports/README.md): the timing tolerance
 * its run judged the device with ({@code tolerance_ns}, {@code tolerance_pct}), read and validated once, before the
 * first frame is judged. A field that is absent counts as 0, as on virtual time and in evidence of an older mrct.
 */
final class EvidenceHeader {
    /** The absolute tolerance's field. */
    static final String TOLERANCE_NS = "tolerance_ns";
    /** The relative tolerance's field. */
    static final String TOLERANCE_PCT = "tolerance_pct";

    /**
     * A field of the section comment that cannot be used: names the file and the field; its message (which reports
     * give after the file's name) says the value and what it must be.
     */
    static final class BadFieldException extends IOException {
        private static final long serialVersionUID = 1L;
        private final transient Path file;
        private final String field;

        BadFieldException(final Path file, final String field, final String message) {
            super("the evidence's section comment has " + message + ": the run's timing tolerance cannot be known");
            this.file = file;
            this.field = field;
        }

        /** The evidence file. */
        Path file() {
            return file;
        }

        /** The field of the section comment, or {@code "section comment"} when the comment as a whole is bad. */
        String field() {
            return field;
        }
    }

    private EvidenceHeader() {
    }

    /**
     * The run's timing tolerance from {@code sectionComment}, the section comment of evidence file {@code file};
     * {@link TimingTolerance#NONE} when the comment is not an mrct one.
     */
    static TimingTolerance tolerance(final Path file, final String sectionComment) throws BadFieldException {
        if (!EvidenceComment.isEvidence(sectionComment)) {
            return TimingTolerance.NONE;
        }
        final Map<String, String> fields;
        try {
            fields = EvidenceComment.parse(sectionComment);
        } catch (IllegalArgumentException e) {
            throw new BadFieldException(file, "section comment", "no readable fields (" + e.getMessage() + ")");
        }
        final long ns = whole(file, fields, TOLERANCE_NS, Long.MAX_VALUE);
        final long pct = whole(file, fields, TOLERANCE_PCT, Integer.MAX_VALUE);
        return new TimingTolerance(ns, (int) pct);
    }

    private static long whole(final Path file, final Map<String, String> fields, final String field, final long max)
            throws BadFieldException {
        final String text = fields.get(field);
        if (text == null) {
            return 0;
        }
        long value = -1;
        try {
            value = Long.parseLong(text);
        } catch (NumberFormatException e) {
            value = -1;
        }
        if (value < 0 || value > max) {
            throw new BadFieldException(file, field, field + "=" + text + ", not a whole number from 0 to " + max);
        }
        return value;
    }
}
