package org.metaroce.mrct.oracle.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.metaroce.mrct.oracle.Basis;
import org.metaroce.mrct.oracle.Finding;
import org.metaroce.mrct.oracle.FrameRule;

/** Gathers the findings of one frame, in the order the checks make them, and says which rules examined it. */
public final class Collector {
    private final long frame;
    private final Consumer<FrameRule> examined;
    private List<Finding> findings;

    /**
     * @param frame    the frame's index or number, copied into every finding
     * @param examined told of every rule that judged the frame, found something or not; may be null
     */
    public Collector(final long frame, final Consumer<FrameRule> examined) {
        this.frame = frame;
        this.examined = examined;
    }

    /** The rule judged the frame. */
    public void examined(final FrameRule rule) {
        if (examined != null) {
            examined.accept(rule);
        }
    }

    /** A finding on the frame. */
    public void add(final FrameRule rule, final String field, final String expected, final String actual,
                    final Basis basis) {
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
