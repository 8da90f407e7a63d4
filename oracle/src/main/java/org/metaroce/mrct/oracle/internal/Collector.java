package org.metaroce.mrct.oracle.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.metaroce.mrct.oracle.Basis;
import org.metaroce.mrct.oracle.Finding;
import org.metaroce.mrct.oracle.FrameRule;

/**
 * Gathers the findings of one frame, in the order the checks make them, and says which rules examined it. It is also
 * the one place where a rule's TVer 0 binding ({@link FrameRule#binds}) is applied: on a TVer 0 frame a rule that does
 * not bind it examines nothing and finds nothing, and a finding on a field RoCEv2 leaves free is dropped.
 */
public final class Collector {
    private static final FrameRule[] RULES = FrameRule.values();
    /**
     * The rules that bind a frame ({@link FrameRule#binds} for no field), as bits of their ordinals: per class of
     * bth.tver (index 0: neither 0 nor 1, 1: TVer 0, 2: TVer 1) and per sender (index 0 unknown, 1 a MetaRoCE device).
     */
    private static final long[][] BOUND = new long[3][2];

    static {
        if (RULES.length > Long.SIZE) {
            throw new IllegalStateException(RULES.length + " rules do not fit the bits of a long");
        }
        final int[] tvers = {-1, 0, 1};
        for (int t = 0; t < 3; t++) {
            for (int sender = 0; sender < 2; sender++) {
                long bits = 0;
                for (final FrameRule rule : RULES) {
                    if (rule.binds(tvers[t], null, sender == 1)) {
                        bits |= 1L << rule.ordinal();
                    }
                }
                BOUND[t][sender] = bits;
            }
        }
    }

    private long frame;
    private final Consumer<FrameRule> examined;
    private int tver;
    private boolean metaroceSender;
    /** The rules that bind this frame, as bits of their ordinals. */
    private long bound;
    /** The rules that examined this frame so far, as bits of their ordinals. */
    private long examinedRules;
    private List<Finding> findings;

    /**
     * A frame of a known MetaRoCE device's QP whose transport version is not considered (the stream rules).
     *
     * @param frame    the frame's index or number, copied into every finding
     * @param examined told of every rule that judged the frame, found something or not; may be null
     */
    public Collector(final long frame, final Consumer<FrameRule> examined) {
        this(frame, examined, 1, true);
    }

    /**
     * @param frame          the frame's index or number, copied into every finding
     * @param examined       told of every rule that judged the frame, found something or not; may be null
     * @param tver           the frame's bth.tver (-1 when it has none)
     * @param metaroceSender the sender is known to be a MetaRoCE device
     */
    public Collector(final long frame, final Consumer<FrameRule> examined, final int tver,
                     final boolean metaroceSender) {
        this.examined = examined;
        reset(frame, tver, metaroceSender);
    }

    /**
     * Starts over on another frame, for a collector reused frame after frame (its observer stays): no finding, no
     * rule examined.
     */
    public void reset(final long frameNumber, final int frameTver, final boolean knownMetaroceSender) {
        this.frame = frameNumber;
        this.tver = frameTver;
        this.metaroceSender = knownMetaroceSender;
        this.bound = BOUND[frameTver == 0 ? 1 : frameTver == 1 ? 2 : 0][knownMetaroceSender ? 1 : 0];
        this.examinedRules = 0;
        this.findings = null;
    }

    /** The rule judged the frame (unless it does not bind the frame's transport version). */
    public void examined(final FrameRule rule) {
        final long bit = 1L << rule.ordinal();
        if ((bound & bit) != 0) {
            examinedRules |= bit;
            if (examined != null) {
                examined.accept(rule);
            }
        }
    }

    /**
     * The rules that judged the frame so far, whatever they found, as bits: rule {@code r} is bit
     * {@code 1L << r.ordinal()}.
     */
    public long examinedRules() {
        return examinedRules;
    }

    /** True when the sender is known to be a MetaRoCE device (its TVer 0 frames are its legacy QPs'). */
    public boolean metaroceSender() {
        return metaroceSender;
    }

    /** True when the rule judges this frame with the values RoCEv2 allows ({@link FrameRule.Tver0#ROCEV2_VALUES}). */
    public boolean rocev2Values(final FrameRule rule) {
        return tver == 0 && rule.tver0() == FrameRule.Tver0.ROCEV2_VALUES;
    }

    /** A finding on the frame. */
    public void add(final FrameRule rule, final String field, final String expected, final String actual,
                    final Basis basis) {
        if (!rule.binds(tver, field, metaroceSender)) {
            return;
        }
        if (findings == null) {
            findings = new ArrayList<>(2);
        }
        findings.add(new Finding(rule.rule(), field, expected, actual, frame, basis));
    }

    /** A finding that rests on the frame alone. */
    public void add(final FrameRule rule, final String field, final String expected, final String actual) {
        add(rule, field, expected, actual, Basis.FRAME);
    }

    /** The findings, in order; an immutable empty list when there are none. */
    public List<Finding> findings() {
        return findings == null ? List.of() : List.copyOf(findings);
    }
}
