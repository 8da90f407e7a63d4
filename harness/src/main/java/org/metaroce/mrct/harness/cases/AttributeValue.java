package org.metaroce.mrct.harness.cases;

import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;
import java.util.function.ToLongFunction;
import org.metaroce.mrct.spi.Access;

/**
 * The value a case gives a QP attribute, typed by the attribute's {@link org.metaroce.mrct.spi.QpAttribute.Type} when
 * the case loads: a number (an expression evaluated per run, or a decimal ratio), a set of access rights, a boolean or
 * a text (an address).
 */
public sealed interface AttributeValue {
    /**
     * The value as {@link org.metaroce.mrct.spi.QpAttributes} takes it (a Long, a Set of {@link Access}, a Boolean or
     * a String), numbers evaluated with {@code eval} for this run.
     */
    Object resolve(ToLongFunction<Expr> eval);

    /** A numeric attribute: an expression, range-checked at load when it is a constant. */
    record Numeric(Expr value) implements AttributeValue {
        @Override
        public Object resolve(final ToLongFunction<Expr> eval) {
            return eval.applyAsLong(value);
        }
    }

    /**
     * A ratio attribute (dcqcn_g, dcqcn_alpha_init) written as a decimal number ({@code 0.00390625}), which an
     * expression, being integer, cannot give: checked from 0 to 1 when the case loads.
     */
    record Ratio(double value) implements AttributeValue {
        @Override
        public Object resolve(final ToLongFunction<Expr> eval) {
            return value;
        }
    }

    /** An access-rights attribute. */
    record Rights(Set<Access> rights) implements AttributeValue {
        public Rights {
            rights = Collections.unmodifiableSet(rights.isEmpty() ? EnumSet.noneOf(Access.class)
                : EnumSet.copyOf(rights));
        }

        @Override
        public Object resolve(final ToLongFunction<Expr> eval) {
            return rights;
        }
    }

    /** A boolean attribute. */
    record Flag(boolean value) implements AttributeValue {
        @Override
        public Object resolve(final ToLongFunction<Expr> eval) {
            return value;
        }
    }

    /** A text attribute (an address). */
    record Text(String value) implements AttributeValue {
        @Override
        public Object resolve(final ToLongFunction<Expr> eval) {
            return value;
        }
    }
}
