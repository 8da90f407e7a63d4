package org.metaroce.mrct.oracle;

import java.util.Objects;

/**
 * What a {@link Finding} rests on besides the bytes of the frame in hand. The caller decides what an uncertain basis
 * is worth: the live engine configured everything it states, so every finding is a violation; {@code mrct analyze}
 * can make a finding that rests on an inference from the capture inconclusive.
 *
 * @param kind   how certain the reference value is
 * @param source where the reference value comes from, in words ("the QP's pkey attribute", "frame 12")
 */
public record Basis(Kind kind, String source) {
    /** How certain the reference value of a finding is. */
    public enum Kind {
        /** The frame alone breaks the rule (a fixed value, a checksum, a layout). */
        FRAME,
        /** A value the caller configured and states: the port's MAC address, a QP attribute it set. */
        CONFIGURED,
        /** A value the caller inferred from other frames: what the QP sent earlier in the capture. */
        INFERRED
    }

    /** The frame alone. */
    public static final Basis FRAME = new Basis(Kind.FRAME, "the frame alone");

    public Basis {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(source, "source");
    }

    /** A value the caller configured: {@code source} names it. */
    public static Basis configured(final String source) {
        return new Basis(Kind.CONFIGURED, source);
    }

    /** A value inferred from other frames: {@code source} says from which. */
    public static Basis inferred(final String source) {
        return new Basis(Kind.INFERRED, source);
    }

    /** True when the reference value is known, not inferred. */
    public boolean certain() {
        return kind != Kind.INFERRED;
    }

    @Override
    public String toString() {
        return kind == Kind.FRAME ? source : (kind == Kind.CONFIGURED ? "configured: " : "inferred: ") + source;
    }
}
