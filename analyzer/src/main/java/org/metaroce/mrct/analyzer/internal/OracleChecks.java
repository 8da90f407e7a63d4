package org.metaroce.mrct.analyzer.internal;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.metaroce.mrct.harness.result.FieldDiff;
import org.metaroce.mrct.oracle.Finding;
import org.metaroce.mrct.oracle.FrameOracle;
import org.metaroce.mrct.oracle.FrameRule;
import org.metaroce.mrct.oracle.QpFacts;
import org.metaroce.mrct.oracle.Vantage;

/**
 * Asks the oracle ({@link FrameOracle}, the checker the live engine uses too) about every frame of the capture and
 * turns its findings into the analysis's: each rule to its {@link Check}, every finding reported. What the capture
 * tells the oracle: the FCS the file keeps, whether the frames were taken at the device (mrct evidence), whether the
 * capture cut the frame, the connection's transport version and the P_Key the flow's first frame carried (inferred,
 * so a finding on it names that frame). A finding inferred from the capture is reported as definite: the earlier
 * frame is the same QP's, and it and this one cannot both be right.
 */
final class OracleChecks {
    private static final Check[] CHECKS = new Check[FrameRule.values().length];
    private static final Map<String, Check> BY_RULE = new HashMap<>();
    /**
     * The rules whose examinations are counted as observations of their check ({@link FrameRule#bit()}): every rule
     * the analysis reports but MR-RD-004, whose observations are counted where the read response is matched to its
     * READ REQUEST.
     */
    private static final long OBSERVED;

    static {
        map(FrameRule.WIRE_001, Check.ETHERNET);
        map(FrameRule.WIRE_004, Check.IPV4);
        map(FrameRule.WIRE_007, Check.IPV6);
        map(FrameRule.WIRE_009, Check.UDP);
        map(FrameRule.WIRE_010, Check.SOURCE_PORT);
        map(FrameRule.WIRE_014, Check.ICRC);
        map(FrameRule.WIRE_013, Check.BTH);
        map(FrameRule.HDR_012, Check.CNP_FORMAT);
        map(FrameRule.WIRE_019, Check.PAD);
        map(FrameRule.HDR_001, Check.HEADERS);
        map(FrameRule.LEG_001, Check.LEGACY_HEADERS);
        map(FrameRule.HDR_002, Check.PLETH_FLAGS);
        map(FrameRule.HDR_003, Check.PLETH_RESERVED);
        map(FrameRule.RD_004, Check.READ_PLETH);
        map(FrameRule.HDR_008, Check.AETH);
        map(FrameRule.HDR_009, Check.ATOMIC_ETH);
        map(FrameRule.ACK_013, Check.NO_NAK_60);
        map(FrameRule.ACK_002, Check.SACK);
        map(FrameRule.ACK_001, Check.ACK_FIELDS);
        map(FrameRule.CC_002, Check.NO_CE);
        map(FrameRule.CC_001, Check.ECT);
        long observed = 0;
        for (final FrameRule rule : FrameRule.values()) {
            if (CHECKS[rule.ordinal()] != null && CHECKS[rule.ordinal()] != Check.READ_PLETH) {
                observed |= rule.bit();
            }
        }
        OBSERVED = observed;
    }

    private OracleChecks() {
    }

    private static void map(final FrameRule rule, final Check check) {
        if (!check.rule().equals(rule.rule())) {
            throw new IllegalStateException(rule + " is " + rule.rule() + ", not " + check.rule());
        }
        CHECKS[rule.ordinal()] = check;
        BY_RULE.put(rule.rule(), check);
    }

    /** The check that reports a rule of the oracle, or null when the analysis does not report it. */
    static Check checkOf(final FrameRule rule) {
        return CHECKS[rule.ordinal()];
    }

    /** The rule of the oracle a decoded frame that is not well formed breaks. */
    static Check checkOfMalformed(final Frame fr) {
        final Check check = checkOf(FrameOracle.ruleOfUndecodable(fr.decoded));
        return check != null ? check : Check.ETHERNET;
    }

    /**
     * Checks the frame. {@code fcs} is the length of the FCS the capture keeps at the end of each frame, or -1 when
     * the file does not say.
     */
    static void check(final Frame fr, final Context cx, final int fcs) {
        final Flow flow = fr.flow;
        final FrameOracle.Checker oracle = cx.oracle;
        // the session keeps frames outside the scope out of the flows: a frame here is in scope or of a known flow
        final List<Finding> findings = oracle.check(fr.decoded, fr.number, fr.cut, cx.vantage(fcs), facts(flow), true);
        // each rule the oracle examined the frame with, counted on the frame's connection
        if (flow.judged) {
            flow.connection.observeRules(oracle.examined() & OBSERVED, CHECKS);
        }
        if (flow.pkey < 0 && !fr.isCnp()) {
            flow.pkey = fr.pkey;
            flow.pkeyFrame = fr.number;
            flow.facts = null; // told to the oracle from the next frame on
        }
        // one report per rule broken, with every field of it: the tally counts frames that break the rule
        int from = 0;
        while (from < findings.size()) {
            int to = from + 1;
            while (to < findings.size() && findings.get(to).rule().equals(findings.get(from).rule())) {
                to++;
            }
            report(fr, cx, findings.subList(from, to));
            from = to;
        }
    }

    /**
     * What the oracle is told of the flow's sender, built again only when the connection's tver or the flow's P_Key
     * was learnt since (learning the P_Key drops it, {@link #check}).
     */
    private static QpFacts facts(final Flow flow) {
        final int tver = flow.connection.tver;
        final QpFacts facts = flow.facts;
        if (facts != null && facts.tver() == tver) {
            return facts;
        }
        final boolean known = flow.pkey >= 0;
        flow.facts = new QpFacts(tver, known ? flow.pkey : null, known ? org.metaroce.mrct.oracle.Basis.inferred(
            "frame " + flow.pkeyFrame + ", the flow's first") : null, null, null, null);
        return flow.facts;
    }

    private static void report(final Frame fr, final Context cx, final List<Finding> ofOneRule) {
        final Finding first = ofOneRule.get(0);
        final Check check = BY_RULE.get(first.rule());
        if (check == null) {
            return;
        }
        final Flow flow = fr.flow;
        final FieldDiff[] diffs = new FieldDiff[ofOneRule.size()];
        for (int i = 0; i < diffs.length; i++) {
            final Finding finding = ofOneRule.get(i);
            diffs[i] = new FieldDiff(finding.field(), finding.expected(), finding.actual());
        }
        cx.judge.report(flow.connection, flow, check, Basis.DEFINITE, fr, () -> message(fr, ofOneRule), null, diffs);
    }

    /** The sentence of a finding: the frame, each field with both values. */
    private static String message(final Frame fr, final List<Finding> ofOneRule) {
        final StringBuilder s = new StringBuilder(96).append(fr.opcode.name());
        if (!fr.isCnp()) {
            s.append(" at PSN ").append(Text.psn(fr.psn));
        }
        s.append(" has ");
        boolean icrc = false;
        for (int i = 0; i < ofOneRule.size(); i++) {
            final Finding finding = ofOneRule.get(i);
            s.append(i == 0 ? "" : i == ofOneRule.size() - 1 ? " and " : ", ").append(finding.field()).append(' ')
                .append(finding.actual()).append(" (expected ").append(finding.expected()).append(')');
            icrc |= finding.field().equals("icrc");
        }
        if (icrc) {
            s.append(" (a faulty link before the capture point would also do this)");
        }
        return s.toString();
    }
}
