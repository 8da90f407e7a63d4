package org.metaroce.mrct.oracle;

import java.util.List;
import java.util.function.Consumer;
import org.metaroce.mrct.oracle.internal.Collector;
import org.metaroce.mrct.oracle.internal.HeaderChecks;
import org.metaroce.mrct.oracle.internal.LinkChecks;
import org.metaroce.mrct.oracle.internal.Scoping;
import org.metaroce.mrct.oracle.internal.TransportChecks;
import org.metaroce.mrct.wire.DecodeFailure;
import org.metaroce.mrct.wire.DecodedFrame;
import org.metaroce.mrct.wire.HeaderKind;

/**
 * The rules every frame a device sends must meet on its own, whatever a case or a capture is about (MetaRoCE v1
 * sections 1, 2, 5, 14 and 15; {@link FrameRule} lists them): the one place each of them is checked. The live
 * engine asks it about every frame the device sends and fails the case on the first finding; {@code mrct analyze}
 * asks it about every frame of a capture and tallies all of them. What only one of them knows (the MAC addresses,
 * the QP's attributes) comes in as {@link Vantage} and {@link QpFacts}; the rules over a QP's stream of frames are
 * {@link QpStream}'s.
 */
public final class FrameOracle {
    private FrameOracle() {
    }

    /**
     * Every finding on a frame that was not cut by a capture, no observer; see
     * {@link #check(DecodedFrame, long, boolean, Vantage, QpFacts, Consumer)}.
     */
    public static List<Finding> check(final DecodedFrame f, final long frame, final Vantage vantage, final QpFacts qp) {
        return check(f, frame, false, vantage, qp, null);
    }

    /**
     * Every finding on one frame, in the order of {@link FrameRule}; an empty list when it meets every rule.
     *
     * @param f         the decoded frame; one that did not decode as MetaRoCE gives one finding ({@link #undecodable});
     *                  one outside MetaRoCE's scope ({@link #scope}) none
     * @param frame     the frame's index or number in its stream or capture, copied into every finding
     * @param truncated the capture cut the frame (its length is the original, the cut bytes zero): the ICRC, the pad
     *                  and what follows the headers are then not judged
     * @param vantage   where the frame was seen and what is known of the link
     * @param qp        what is known of the QP that sent it ({@link QpFacts#UNKNOWN} for nothing)
     * @param examined  told of every rule that judged the frame, whatever it found (a count of observations); may be
     *                  null
     */
    public static List<Finding> check(final DecodedFrame f, final long frame, final boolean truncated,
                                      final Vantage vantage, final QpFacts qp, final Consumer<FrameRule> examined) {
        return check(f, frame, truncated, vantage, qp, examined, false);
    }

    /**
     * Every finding on one frame, as {@link #check(DecodedFrame, long, boolean, Vantage, QpFacts, Consumer)}, from a
     * caller that follows flows: when {@code knownFlow}, the caller has seen RoCE frames of the frame's flow before, so
     * a frame that is no BTH is a damaged frame of that flow, judged, not another protocol's datagram.
     */
    public static List<Finding> check(final DecodedFrame f, final long frame, final boolean truncated,
                                      final Vantage vantage, final QpFacts qp, final Consumer<FrameRule> examined,
                                      final boolean knownFlow) {
        if (!Scoping.of(f, vantage, knownFlow).judged()) {
            return List.of();
        }
        final Collector out = new Collector(frame, examined, f.tver(), vantage.metaroceSender());
        judge(f, truncated, vantage, qp, out);
        return out.findings();
    }

    /**
     * A checker to ask about frame after frame on one thread, as {@link #check} but without an observer: what each
     * frame was examined by is read afterwards as bits ({@link #examined()}), and nothing is allocated for a frame
     * that meets every rule. Not thread-safe: one per thread.
     */
    public static final class Checker {
        private final Collector out = new Collector(0, null, -1, false);

        /**
         * Every finding on one frame, as {@link FrameOracle#check(DecodedFrame, long, boolean, Vantage, QpFacts,
         * Consumer, boolean)}; the rules that examined it are then {@link #examined()}.
         */
        public List<Finding> check(final DecodedFrame f, final long frame, final boolean truncated,
                                   final Vantage vantage, final QpFacts qp, final boolean knownFlow) {
            out.reset(frame, f.tver(), vantage.metaroceSender());
            if (!Scoping.of(f, vantage, knownFlow).judged()) {
                return List.of();
            }
            judge(f, truncated, vantage, qp, out);
            return out.findings();
        }

        /**
         * The rules that examined the frame last checked, whatever they found, as bits: {@code rule} is bit
         * {@code 1L << rule.ordinal()} ({@link FrameRule#bit()}); 0 for a frame outside the scope.
         */
        public long examined() {
            return out.examinedRules();
        }
    }

    private static void judge(final DecodedFrame f, final boolean truncated, final Vantage vantage, final QpFacts qp,
                              final Collector out) {
        if (!f.isRoce()) {
            undecodable(f, out);
            return;
        }
        LinkChecks.wire001(f, vantage, out);
        LinkChecks.mp007(f, vantage, out);
        LinkChecks.wire004(f, vantage, truncated, out);
        LinkChecks.wire007(f, vantage, truncated, out);
        LinkChecks.wire009(f, out);
        LinkChecks.wire010(f, out);
        LinkChecks.wire014(f, truncated, out);
        TransportChecks.wire013(f, qp, out);
        TransportChecks.hdr012(f, qp, truncated, out);
        TransportChecks.wire019(f, truncated, out);
        TransportChecks.layout(f, truncated, out);
        HeaderChecks.hdr002(f, out);
        HeaderChecks.hdr003(f, out);
        HeaderChecks.rd004(f, out);
        HeaderChecks.hdr008(f, out);
        HeaderChecks.hdr009(f, out);
        HeaderChecks.ack013(f, out);
        HeaderChecks.ack002(f, qp, out);
        HeaderChecks.ack001(f, qp, out);
        LinkChecks.cc002(f, vantage, out);
        LinkChecks.cc001(f, vantage, out);
    }

    /**
     * Whether MetaRoCE's rules judge a frame to UDP port 4791 at all (Appendix F.1): UC, UD, management datagrams on
     * QP0 and QP1, the other services of the opcode space and, from a sender not known to be a MetaRoCE device,
     * datagrams that are no BTH are outside the scope, with the reason. {@link #check} finds nothing on them.
     */
    public static Scope scope(final DecodedFrame f, final Vantage vantage) {
        return Scoping.of(f, vantage, false);
    }

    /**
     * The scope of a frame, from a caller that follows flows: when {@code knownFlow}, RoCE frames of the frame's flow
     * (addresses and destination QP) were seen before, and a frame that is no BTH is a damaged frame of that flow.
     */
    public static Scope scope(final DecodedFrame f, final Vantage vantage, final boolean knownFlow) {
        return Scoping.of(f, vantage, knownFlow);
    }

    /** The rule a frame that did not decode as a MetaRoCE frame breaks, by what the decoder found wrong. */
    public static FrameRule ruleOfUndecodable(final DecodedFrame f) {
        final DecodeFailure failure = f.failure();
        if (failure == null || failure.error() == null) {
            return FrameRule.WIRE_001;
        }
        final boolean v4 = f.ipVersion() == 4;
        switch (failure.error()) {
            case STACKED_VLAN:
                return FrameRule.WIRE_001;
            case PAD_EXCEEDS_PAYLOAD:
                return FrameRule.WIRE_019;
            case BAD_IP_HEADER:
            case IP_FRAGMENT:
                return v4 ? FrameRule.WIRE_004 : FrameRule.WIRE_007;
            case LENGTH_MISMATCH:
                return failure.field().startsWith("udp") ? FrameRule.WIRE_009
                    : v4 ? FrameRule.WIRE_004 : FrameRule.WIRE_007;
            default:
                if (failure.field().startsWith("ip")) {
                    return v4 ? FrameRule.WIRE_004 : FrameRule.WIRE_007;
                }
                return f.has(HeaderKind.BTH) && (f.buffer().get(f.offset(HeaderKind.BTH) + 1) & 0xF) == 0
                    ? FrameRule.LEG_001 : FrameRule.HDR_001;
        }
    }

    private static void undecodable(final DecodedFrame f, final Collector out) {
        final FrameRule rule = ruleOfUndecodable(f);
        out.examined(rule);
        final DecodeFailure failure = f.failure();
        if (failure == null) {
            out.add(rule, "frame", "a well-formed MetaRoCE frame", f.status().toString());
        } else {
            out.add(rule, failure.field(), "a well-formed frame", failure.error() + " at byte " + failure.offset()
                + ": " + failure.detail());
        }
    }
}
