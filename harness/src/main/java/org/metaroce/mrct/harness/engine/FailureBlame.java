package org.metaroce.mrct.harness.engine;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;
import org.metaroce.mrct.harness.blame.Blame;
import org.metaroce.mrct.harness.blame.Cause;
import org.metaroce.mrct.harness.blame.FailureContext;
import org.metaroce.mrct.harness.blame.FailureShape;
import org.metaroce.mrct.harness.blame.SentPacket;
import org.metaroce.mrct.harness.cases.FrameTemplate;
import org.metaroce.mrct.harness.cases.Matcher;
import org.metaroce.mrct.harness.cases.Step;
import org.metaroce.mrct.harness.result.Direction;
import org.metaroce.mrct.harness.result.FieldDiff;
import org.metaroce.mrct.harness.result.FrameRecord;
import org.metaroce.mrct.harness.spec.Level;
import org.metaroce.mrct.harness.spec.Specification;
import org.metaroce.mrct.spi.Access;
import org.metaroce.mrct.spi.MemoryRegion;
import org.metaroce.mrct.wire.DecodedFrame;
import org.metaroce.mrct.wire.FrameDecoder;
import org.metaroce.mrct.wire.OpKind;
import org.metaroce.mrct.wire.Opcode;
import org.metaroce.mrct.wire.Psn;

/**
 * Gathers, when a case fails, what {@link Blame} needs from the run: the shape of the failed step, the offending frame,
 * the frames the harness had sent on its connection, the template's exact expectations and (on demand) the counters'
 * change, then asks for the cause.
 */
final class FailureBlame {
    /** What the run knows at the failure. */
    record Inputs(StepFailure failure, Step step, List<FrameRecord> evidence, Map<String, Connection> connections,
                  Function<Integer, Connection> byHarnessQpn, Function<String, Long> names,
                  Function<String, byte[]> addresses, Supplier<Map<String, Long>> counterChange,
                  List<String> caseRules, boolean requester, List<MemoryRegion> regions) {
    }

    private static final Map<Specification, FailureBlame> BY_SPEC =
        java.util.Collections.synchronizedMap(new java.util.WeakHashMap<>());
    private final Blame blame;

    private FailureBlame(final Blame blame) {
        this.blame = blame;
    }

    /** The blame of {@code spec} (its tables are built once per specification). */
    static FailureBlame of(final Specification spec) {
        return BY_SPEC.computeIfAbsent(spec, s -> new FailureBlame(new Blame(s)));
    }

    Cause cause(final Inputs in, final Level level) {
        final StepFailure e = in.failure();
        final DecodedFrame actual = e.frame >= 0 && e.frame < in.evidence().size()
            ? decode(in.evidence().get(e.frame)) : null;
        final List<FrameTemplate> templates = templates(in.step());
        Connection connection = null;
        if (actual != null && actual.isRoce()) {
            connection = in.byHarnessQpn().apply(actual.bth().destQp());
        }
        if (connection == null) {
            for (final FrameTemplate template : templates) {
                if (template.connection() != null && in.connections().containsKey(template.connection())) {
                    connection = in.connections().get(template.connection());
                    break;
                }
            }
        }
        if (connection == null && in.connections().size() == 1) {
            connection = in.connections().values().iterator().next();
        }
        final List<FieldDiff> diffs = new ArrayList<>();
        if (e.rule != null && actual != null && actual.isRoce() && in.step() instanceof Step.Expect expect) {
            // a per-frame check fired on the frame the step expected: the step's own diffs say which field is wrong
            final Connection c = expect.template().connection() == null ? null
                : in.connections().get(expect.template().connection());
            try {
                diffs.addAll(FrameCheck.check(actual, expect.template(), c, in.names(), in.addresses()));
            } catch (RuntimeException ignored) {
                // a template that cannot be evaluated against this frame: the check's own diff stands
            }
        }
        diffs.addAll(e.diffs);
        final FrameTemplate primary = e.missingTemplate != null ? e.missingTemplate
            : templates.isEmpty() ? null : templates.get(0);
        final List<SentPacket> sent = new ArrayList<>();
        final int sentBefore = connection == null ? 0 : sent(in.evidence(), connection, e.frame, in.regions(), sent);
        final FailureContext context = new FailureContext(shape(in.step(), e), e.rule, diffs,
            primary == null ? List.of() : primary.opcodes().stream().map(Opcode::name).toList(), exactValues(primary, in.names()), actual, sent,
            sentBefore, connection == null ? 0 : connection.recvWindow, connection == null ? 0 : connection.psnBase(),
            in.counterChange(), in.caseRules(), in.requester(),
            connection == null ? java.util.Set.of() : naks(in.evidence(), connection),
            cnpWithinInterval(in.evidence(), e.frame, actual, in.names()),
            connection == null ? List.of() : responded(in.evidence(), connection),
            connection == null ? null : reportedEpsn(in.evidence(), connection), connection == null ? -1 : connection.tver,
            nextRequest(in.evidence(), e.frame, actual), connection != null && actual != null
                && connection.inErrorAt(in.evidence().get(e.frame).timestampNanos()));
        return blame.cause(context, level);
    }

    private static FailureShape shape(final Step step, final StepFailure e) {
        if (e.frame >= 0 && e.rule != null) {
            return FailureShape.FRAME_MISMATCH; // a per-frame check fired, whatever step was running
        }
        if (step == null) {
            return e.frame >= 0 ? FailureShape.FRAME_UNEXPECTED : FailureShape.OTHER;
        }
        if (step instanceof Step.Expect || step instanceof Step.ExpectUnordered) {
            if (e.frame < 0) {
                return FailureShape.FRAME_MISSING;
            }
            return e.diffs.isEmpty() && e.rule == null ? FailureShape.FRAME_MISSING : FailureShape.FRAME_MISMATCH;
        }
        if (step instanceof Step.ExpectNone) {
            return e.frame >= 0 && e.rule == null ? FailureShape.FRAME_UNEXPECTED : FailureShape.OTHER;
        }
        if (step instanceof Step.ExpectCompletions) {
            return FailureShape.COMPLETIONS;
        }
        if (step instanceof Step.ExpectMemory) {
            return FailureShape.MEMORY;
        }
        if (step instanceof Step.ExpectCounters) {
            return FailureShape.COUNTERS;
        }
        if (step instanceof Step.ExpectQp || step instanceof Step.ModifyQp) {
            return FailureShape.CONTROL;
        }
        return e.frame >= 0 && e.diffs.isEmpty() && e.rule == null ? FailureShape.FRAME_UNEXPECTED
            : FailureShape.OTHER;
    }

    private static List<FrameTemplate> templates(final Step step) {
        if (step instanceof Step.Expect expect) {
            return List.of(expect.template());
        }
        if (step instanceof Step.ExpectUnordered unordered) {
            return unordered.templates();
        }
        if (step instanceof Step.ExpectNone none && none.filter() != null) {
            return List.of(none.filter());
        }
        return List.of();
    }

    /** The template's fields with one exact value that evaluates without the frame. */
    private static Map<String, Long> exactValues(final FrameTemplate template, final Function<String, Long> names) {
        if (template == null) {
            return Map.of();
        }
        final Map<String, Long> values = new LinkedHashMap<>();
        for (final Map.Entry<String, Matcher> entry : template.fields().entrySet()) {
            if (entry.getValue().kind() == Matcher.Kind.MASKED && entry.getKey().equals("aeth.syndrome")) {
                // a syndrome under a mask (an RNR NAK with any timer, 0x20 under 0xE0): its kind is what blame needs
                try {
                    values.put(entry.getKey(), entry.getValue().values().get(1).eval(names)
                        & entry.getValue().values().get(0).eval(names));
                } catch (RuntimeException ignored) {
                    // refers to a field of the frame itself
                }
                continue;
            }
            if (entry.getValue().kind() == Matcher.Kind.EXACT) {
                try {
                    values.put(entry.getKey(), entry.getValue().values().get(0).eval(names));
                } catch (RuntimeException ignored) {
                    // refers to a field of the frame itself: not a value blame can use
                }
            }
        }
        return values;
    }

    /**
     * Adds to {@code sent} the frames the harness sent to {@code c}'s QP, and returns how many of them came before
     * evidence frame {@code frame} (all of them when it is negative). A request the device rejected with a NAK or RNR
     * NAK naming its PSN (checks of Tables 6-2, 10-1 and 4-2) is marked rejected: a responder records nothing of it,
     * so it must not move the view of ePSN that blame compares acknowledgements and counters with.
     */
    private static int sent(final List<FrameRecord> evidence, final Connection c, final int frame,
                            final List<MemoryRegion> regions, final List<SentPacket> sent) {
        final FrameDecoder decoder = new FrameDecoder();
        final List<SentPacket> all = new ArrayList<>();
        final List<Integer> at = new ArrayList<>();
        final java.util.BitSet rejected = new java.util.BitSet();
        final java.util.Set<Integer> invalidated = new java.util.HashSet<>();
        for (int i = 0; i < evidence.size(); i++) {
            final FrameRecord record = evidence.get(i);
            if (record.direction() == Direction.FROM_DUT) {
                final DecodedFrame f = decoder.decode(ByteBuffer.wrap(record.bytes()), 0, record.bytes().length);
                if (f.isRoce() && f.bth().destQp() == c.peerQpn && rejection(f)) {
                    final int psn = Psn.diff(f.bth().psn(), c.psnBase());
                    for (int k = all.size() - 1; k >= 0; k--) {
                        if (all.get(k).isRequest() && all.get(k).psn() == psn && !rejected.get(k)) {
                            rejected.set(k);
                            break;
                        }
                    }
                }
                continue;
            }
            if (record.direction() != Direction.TO_DUT || record.note() != null && record.note().startsWith("dropped")) {
                continue; // recorded for the evidence but never sent (a message step's drop list)
            }
            final DecodedFrame f = decoder.decode(ByteBuffer.wrap(record.bytes()), 0, record.bytes().length);
            if (!f.isRoce() || f.bth().destQp() != c.deviceQpn) {
                continue;
            }
            if (f.opcode().hasInvalidate() && f.has(org.metaroce.mrct.wire.HeaderKind.IETH)) {
                invalidated.add(f.ieth().rkey()); // from when its message completes: the harness does not know when
            }
            final boolean request = f.opcode().kind().isRequest();
            final int base = request ? c.psnBase() : c.devicePsnBase();
            int span = 1;
            if (f.opcode().kind() == OpKind.RDMA_READ_REQUEST && f.has(org.metaroce.mrct.wire.HeaderKind.RETH)
                && c.pmtu > 0) {
                span = (int) Math.max(1, (f.reth().dmaLength() + c.pmtu - 1) / c.pmtu);
            }
            all.add(new SentPacket(Psn.diff(f.bth().psn(), base), f.opcode(), f.bth().ackReq(),
                f.isCongestionExperienced(), span, dropRule(f, c),
                f.has(org.metaroce.mrct.wire.HeaderKind.RETH) ? f.reth().dmaLength() : -1, false, f.payloadLength(),
                padNonZero(f), f.has(org.metaroce.mrct.wire.HeaderKind.UDP) ? f.udp().sourcePort() : -1,
                arrivalRule(f, c), wrongRightRule(f, c, regions == null ? List.of() : regions.stream()
                    .filter(mr -> !invalidated.contains(mr.rkey())).toList())));
            at.add(i);
        }
        int before = 0;
        for (int k = 0; k < all.size(); k++) {
            sent.add(rejected.get(k) ? all.get(k).asRejected() : all.get(k));
            if (frame >= 0 && at.get(k) < frame) {
                before++;
            }
        }
        return frame < 0 || frame >= evidence.size() ? sent.size() : before;
    }

    /**
     * The rule of check V4 (MR-PLC-010) when {@code f} is a SEND or RDMA WRITE MIDDLE or LAST packet whose pleth.offset
     * is 0 or not a multiple of the QP's PMTU: such a packet fails the sequence check of Table 4-2 as well (it never
     * follows its predecessor at PMTU), with the same NAK 0x61, so only where its bytes went tells the two apart.
     */
    static String arrivalRule(final DecodedFrame f, final Connection c) {
        if (f.tver() != 1 || !f.has(org.metaroce.mrct.wire.HeaderKind.PLETH) || c.pmtu <= 0
            || f.opcode().kind() != OpKind.SEND && f.opcode().kind() != OpKind.RDMA_WRITE) {
            return null;
        }
        final org.metaroce.mrct.wire.Position position = f.opcode().position();
        if (position != org.metaroce.mrct.wire.Position.MIDDLE && position != org.metaroce.mrct.wire.Position.LAST) {
            return null;
        }
        final long offset = f.pleth().messageOffset();
        return offset == 0 || offset % c.pmtu != 0 ? "MR-PLC-010" : null;
    }

    /**
     * MR-SEC-004 when {@code f} is an RDMA WRITE, READ REQUEST or atomic request that passes Table 10-1 by the harness's
     * own records (its key names a region registered in the QP's protection domain with the right the request needs,
     * every byte it accesses inside) while that region lacks another remote right; null otherwise (see
     * {@link SentPacket#wrongRightRule()}).
     */
    static String wrongRightRule(final DecodedFrame f, final Connection c, final List<MemoryRegion> regions) {
        final Access needed;
        final int rkey;
        final long va;
        final long bytes;
        if (f.has(org.metaroce.mrct.wire.HeaderKind.RETH) && (f.opcode().kind() == OpKind.RDMA_WRITE
            || f.opcode().kind() == OpKind.RDMA_READ_REQUEST)) {
            needed = f.opcode().kind() == OpKind.RDMA_WRITE ? Access.REMOTE_WRITE : Access.REMOTE_READ;
            rkey = f.reth().rkey();
            va = f.reth().va();
            bytes = f.reth().dmaLength();
        } else if (f.has(org.metaroce.mrct.wire.HeaderKind.ATOMIC_ETH)) {
            needed = Access.REMOTE_ATOMIC;
            rkey = f.atomicEth().rkey();
            va = f.atomicEth().va();
            bytes = 8;
        } else {
            return null;
        }
        if (bytes <= 0 || regions == null) {
            return null; // a zero-length request's key is not checked (MR-SEC-008)
        }
        for (final MemoryRegion mr : regions) {
            if (mr.rkey() == rkey) {
                final boolean passes = mr.pd() == c.pd && mr.access().contains(needed) && mr.contains(va, bytes);
                final boolean lacks = java.util.stream.Stream.of(Access.REMOTE_WRITE, Access.REMOTE_READ,
                    Access.REMOTE_ATOMIC).anyMatch(a -> !mr.access().contains(a));
                return passes && lacks ? "MR-SEC-004" : null;
            }
        }
        return null;
    }

    /** True when a pad byte of {@code f} is not zero. */
    private static boolean padNonZero(final DecodedFrame f) {
        if (f.error() != null || f.padLength() > f.dataRegionLength()) {
            return false;
        }
        for (int i = 0; i < f.padLength(); i++) {
            if (f.buffer().get(f.payloadOffset() + f.payloadLength() + i) != 0) {
                return true;
            }
        }
        return false;
    }

    /** True for a NAK that rejects a request (0x61, 0x62, 0x63) or an RNR NAK: nothing of the request is recorded. */
    private static boolean rejection(final DecodedFrame f) {
        if (f.opcode().kind() != OpKind.ACKNOWLEDGE || !f.has(org.metaroce.mrct.wire.HeaderKind.AETH)) {
            return false;
        }
        final org.metaroce.mrct.wire.AethSyndrome syndrome =
            org.metaroce.mrct.wire.AethSyndrome.valueOf(f.aeth().syndromeValue());
        return syndrome.type() == org.metaroce.mrct.wire.AethSyndrome.Type.RNR_NAK
            || f.aeth().syndromeValue() >= 0x61 && f.aeth().syndromeValue() <= 0x63;
    }

    /** The rule that makes a conforming device drop {@code f} silently (Table 11-1's early checks), or null. */
    static String dropRule(final DecodedFrame f, final Connection c) {
        if (!f.ipChecksumValid()) {
            return "MR-WIRE-006";
        }
        if (!f.udpChecksumValid()) {
            return "MR-WIRE-012";
        }
        if (!f.icrcValid()) {
            return "MR-WIRE-015";
        }
        if (f.tver() != 0 && f.tver() != 1) {
            return "MR-WIRE-017";
        }
        if (f.padLength() > f.dataRegionLength() || (f.dataRegionLength() & 3) != 0) {
            return "MR-WIRE-021";
        }
        if (f.bth().pkey() != c.pkey && f.opcode() != org.metaroce.mrct.wire.Opcode.CNP) {
            return "MR-SEC-009";
        }
        if ((c.tver == 0 || c.tver == 1) && f.tver() != c.tver && f.opcode() != org.metaroce.mrct.wire.Opcode.CNP) {
            return "MR-ROB-008";
        }
        if (f.tver() == 1 && f.has(org.metaroce.mrct.wire.HeaderKind.PLETH) && (f.opcode().kind().isRequest()
            || f.opcode().kind() == OpKind.RDMA_READ_RESPONSE)) {
            // Table 11-1 step 18: pleth.first and pleth.last as Table 2-2 gives them for the opcode (a READ REQUEST
            // or an atomic, position NONE, is a message of one packet: both 1)
            final org.metaroce.mrct.wire.Position position = f.opcode().position();
            final boolean single = position == org.metaroce.mrct.wire.Position.NONE;
            if (f.pleth().first() != (single || position.isFirst()) || f.pleth().last() != (single
                || position.isLast())) {
                return "MR-ROB-007";
            }
        }
        return null;
    }

    /**
     * Whether the CNP {@code actual} (evidence frame {@code frame}) left less than cnp_interval_ns after the device's
     * previous CNP to the same QP; null when it is not a CNP, there was no earlier one or the interval is unknown.
     */
    private static Boolean cnpWithinInterval(final List<FrameRecord> evidence, final int frame,
                                             final DecodedFrame actual, final Function<String, Long> names) {
        if (actual == null || !actual.isRoce() || actual.opcode().kind() != OpKind.CNP || frame <= 0
            || frame >= evidence.size()) {
            return null;
        }
        final long interval;
        try {
            final Long value = names.apply("cnp_interval_ns");
            if (value == null) {
                return null;
            }
            interval = value;
        } catch (RuntimeException unknown) {
            return null;
        }
        final FrameDecoder decoder = new FrameDecoder();
        for (int i = frame - 1; i >= 0; i--) {
            final FrameRecord record = evidence.get(i);
            if (record.direction() != Direction.FROM_DUT) {
                continue;
            }
            final DecodedFrame f = decoder.decode(ByteBuffer.wrap(record.bytes()), 0, record.bytes().length);
            if (f.isRoce() && f.opcode().kind() == OpKind.CNP && f.bth().destQp() == actual.bth().destQp()) {
                return evidence.get(frame).timestampNanos() - record.timestampNanos() < interval;
            }
        }
        return null;
    }

    /**
     * The PSNs (relative to the harness's request PSNs) of the READ responses and atomic acknowledgements the device
     * sent to {@code c}'s harness end, in the evidence so far.
     */
    /** The device's first request after evidence frame {@code frame} to the QP {@code actual} went to, or null. */
    private static DecodedFrame nextRequest(final List<FrameRecord> evidence, final int frame,
                                            final DecodedFrame actual) {
        if (actual == null || !actual.isRoce() || !actual.opcode().kind().isRequest()) {
            return null;
        }
        final FrameDecoder decoder = new FrameDecoder();
        for (int i = frame + 1; i < evidence.size(); i++) {
            final FrameRecord record = evidence.get(i);
            if (record.direction() != Direction.FROM_DUT) {
                continue;
            }
            final DecodedFrame f = decoder.decode(ByteBuffer.wrap(record.bytes()), 0, record.bytes().length);
            if (f.isRoce() && f.bth().destQp() == actual.bth().destQp() && f.opcode().kind().isRequest()) {
                return f.copy();
            }
        }
        return null;
    }

    private static List<Integer> responded(final List<FrameRecord> evidence, final Connection c) {
        final List<Integer> psns = new ArrayList<>();
        final FrameDecoder decoder = new FrameDecoder();
        for (int i = 0; i < evidence.size(); i++) {
            final FrameRecord record = evidence.get(i);
            if (record.direction() != Direction.FROM_DUT) {
                continue;
            }
            final DecodedFrame f = decoder.decode(ByteBuffer.wrap(record.bytes()), 0, record.bytes().length);
            if (f.isRoce() && f.bth().destQp() == c.peerQpn && (f.opcode().kind() == OpKind.RDMA_READ_RESPONSE
                || f.opcode().kind() == OpKind.ATOMIC_ACKNOWLEDGE)) {
                psns.add(Psn.diff(f.bth().psn(), c.psnBase()));
            }
        }
        return psns;
    }

    /**
     * The ePSN (sacketh.base relative to the harness's request PSNs) of the last plain ACK the device sent to {@code c}'s
     * harness end after the last request the harness sent on it, or null when none came after it.
     */
    private static Integer reportedEpsn(final List<FrameRecord> evidence, final Connection c) {
        final FrameDecoder decoder = new FrameDecoder();
        Integer reported = null;
        for (final FrameRecord record : evidence) {
            final DecodedFrame f = decoder.decode(ByteBuffer.wrap(record.bytes()), 0, record.bytes().length);
            if (!f.isRoce()) {
                continue;
            }
            if (record.direction() == Direction.TO_DUT && f.bth().destQp() == c.deviceQpn
                && f.opcode().kind().isRequest() && (record.note() == null || !record.note().startsWith("dropped"))) {
                reported = null; // an answer must come after this request to report it
            } else if (record.direction() == Direction.FROM_DUT && f.bth().destQp() == c.peerQpn
                && f.opcode().kind() == OpKind.ACKNOWLEDGE && f.has(org.metaroce.mrct.wire.HeaderKind.AETH)
                && f.has(org.metaroce.mrct.wire.HeaderKind.SACKETH) && org.metaroce.mrct.wire.AethSyndrome.valueOf(
                    f.aeth().syndromeValue()).type() == org.metaroce.mrct.wire.AethSyndrome.Type.ACK) {
                reported = Psn.diff(f.sacketh().basePsn(), c.psnBase());
            }
        }
        return reported;
    }

    /** The NAK codes (aeth.syndrome of NAK and RNR NAK frames) the device sent to {@code c}'s harness end. */
    private static java.util.Set<Integer> naks(final List<FrameRecord> evidence, final Connection c) {
        final java.util.Set<Integer> codes = new java.util.TreeSet<>();
        final FrameDecoder decoder = new FrameDecoder();
        for (final FrameRecord record : evidence) {
            if (record.direction() != Direction.FROM_DUT) {
                continue;
            }
            final DecodedFrame f = decoder.decode(ByteBuffer.wrap(record.bytes()), 0, record.bytes().length);
            if (f.isRoce() && f.opcode().kind() == OpKind.ACKNOWLEDGE && f.has(org.metaroce.mrct.wire.HeaderKind.AETH)
                && f.bth().destQp() == c.peerQpn && org.metaroce.mrct.wire.AethSyndrome.valueOf(
                    f.aeth().syndromeValue()).type() != org.metaroce.mrct.wire.AethSyndrome.Type.ACK) {
                codes.add(f.aeth().syndromeValue());
            }
        }
        return codes;
    }

    private static DecodedFrame decode(final FrameRecord record) {
        return new FrameDecoder().decode(ByteBuffer.wrap(record.bytes()), 0, record.bytes().length).copy();
    }
}
