package org.metaroce.mrct.harness.engine;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.metaroce.mrct.harness.result.FieldDiff;
import org.metaroce.mrct.oracle.Basis;
import org.metaroce.mrct.oracle.Finding;
import org.metaroce.mrct.oracle.ReadRerequest;
import org.metaroce.mrct.oracle.RequesterRepeat;
import org.metaroce.mrct.spi.WorkOpcode;
import org.metaroce.mrct.wire.DecodedFrame;
import org.metaroce.mrct.wire.HeaderKind;
import org.metaroce.mrct.wire.Opcode;

/**
 * What a conforming requester sends for the work requests a case posted on one QP (MetaRoCE v1 section 12): each
 * WQE's MSN, RSN, PSN span, and for every PSN the exact packet (Table 12-1 opcode, payload bytes, PLETH, RETH, ImmDt,
 * IETH, AtomicETH, AckReq). PSNs are relative to the QP's sq_psn.
 */
final class SendQueueModel {
    /** A rule broken by one field of a request packet. */
    record Violation(String rule, FieldDiff diff) {
    }

    /** One posted WQE as the wire must show it. */
    static final class Work {
        final int index;
        final WorkOpcode op;
        final long length;
        final byte[] payload;
        final long remoteVa;
        final int rkey;
        final int immediate;
        final long swapAdd;
        final long compare;
        final boolean fence;
        final long wrId;
        final boolean signaled;
        int msn;
        int rsn;
        int firstPsn;
        int span;

        Work(final int index, final WorkOpcode op, final long length, final byte[] payload, final long remoteVa,
             final int rkey, final int immediate, final long swapAdd, final long compare, final boolean fence,
             final long wrId, final boolean signaled) {
            this.index = index;
            this.op = op;
            this.length = length;
            this.payload = payload;
            this.remoteVa = remoteVa;
            this.rkey = rkey;
            this.immediate = immediate;
            this.swapAdd = swapAdd;
            this.compare = compare;
            this.fence = fence;
            this.wrId = wrId;
            this.signaled = signaled;
        }

        boolean isRead() {
            return op == WorkOpcode.RDMA_READ;
        }

        boolean isAtomic() {
            return op == WorkOpcode.COMPARE_SWAP || op == WorkOpcode.FETCH_ADD;
        }

        /** READs and atomics: counted against max_rd_atomic, waited for by a fence. */
        boolean isReadOrAtomic() {
            return isRead() || isAtomic();
        }

        boolean consumesReceive() {
            return op == WorkOpcode.SEND || op == WorkOpcode.SEND_WITH_IMM || op == WorkOpcode.SEND_WITH_INV
                || op == WorkOpcode.RDMA_WRITE_WITH_IMM;
        }

        int lastPsn() {
            return firstPsn + span - 1;
        }

        String describe() {
            return "WQE " + (index + 1) + " (" + op.name().toLowerCase(Locale.ROOT) + " of " + length + " bytes, MSN "
                + msn + ", PSNs " + firstPsn + (span > 1 ? ".." + lastPsn() : "") + ")";
        }
    }

    private static final Basis REQUESTED = Basis.configured("the work request the case posted");
    private final int pmtu;
    /** A tver 0 QP (section 16): Table D-4 headers, no PLETH, RETH on RDMA WRITE FIRST and ONLY only. */
    private final boolean legacy;
    private final List<Work> works = new ArrayList<>();
    private int nextPsn;
    private int nextRsn;

    SendQueueModel(final int pmtu) {
        this(pmtu, false);
    }

    SendQueueModel(final int pmtu, final boolean legacy) {
        this.pmtu = pmtu;
        this.legacy = legacy;
    }

    List<Work> works() {
        return works;
    }

    /** The relative PSN after every posted WQE's span. */
    int nextPsn() {
        return nextPsn;
    }

    /** Records a posted WQE, numbering it as the device must. */
    Work post(final Work work) {
        work.msn = works.size();
        work.rsn = work.consumesReceive() ? nextRsn++ : 0;
        work.firstPsn = nextPsn;
        work.span = work.isAtomic() ? 1 : (int) Math.max(1, (work.length + pmtu - 1) / pmtu);
        nextPsn += work.span;
        works.add(work);
        return work;
    }

    /** The WQE whose span holds relative PSN {@code psn}, or null. */
    Work byPsn(final int psn) {
        int low = 0;
        int high = works.size() - 1;
        while (low <= high) {
            final int mid = (low + high) >>> 1;
            final Work w = works.get(mid);
            if (psn < w.firstPsn) {
                high = mid - 1;
            } else if (psn > w.lastPsn()) {
                low = mid + 1;
            } else {
                return w;
            }
        }
        return null;
    }

    /**
     * Every way {@code frame}, a request the device sent at relative PSN {@code psn} of {@code work}, differs from the
     * packet the specification requires. A retransmission is judged against its original by the oracle's
     * {@link RequesterRepeat} (MR-RTX-006, -017, -018), so only AckReq on a last packet is checked here; a READ
     * REQUEST after the READ's first PSN has the shape of the oracle's {@link ReadRerequest} (MR-RTX-016, MR-LEG-010).
     */
    List<Violation> check(final DecodedFrame frame, final Work work, final int psn, final boolean retransmission) {
        if (retransmission && RequesterRepeat.compared(frame.opcode(), psn, work.isRead() ? work.firstPsn : psn)) {
            final List<Violation> out = new ArrayList<>(1);
            if (work.isReadOrAtomic() || psn == work.lastPsn()) {
                number(out, "MR-REQ-010", frame, "bth.ackreq", 1);
            }
            return out;
        }
        return differences(frame, work, psn);
    }

    /**
     * Every field where {@code frame} differs from the packet {@code work} makes at relative PSN {@code psn}, each with
     * the rule a first transmission breaks there (a retransmission's failure shows them as its details).
     */
    List<Violation> differences(final DecodedFrame frame, final Work work, final int psn) {
        final List<Violation> out = new ArrayList<>();
        final int k = psn - work.firstPsn;
        final Opcode opcode = frame.opcode();
        if (work.isRead()) {
            expect(out, "MR-REQ-006", "bth.opcode", Opcode.RDMA_READ_REQUEST, opcode);
            if (opcode != Opcode.RDMA_READ_REQUEST) {
                return out;
            }
            if (k > 0) {
                final ReadRerequest.Read read = new ReadRerequest.Read(work.msn, work.remoteVa, work.rkey,
                    work.length);
                for (final Finding f : ReadRerequest.check(frame, read, k, pmtu, -1, REQUESTED)) {
                    out.add(new Violation(f.rule(), new FieldDiff(f.field(), f.expected(), f.actual())));
                }
            } else if (legacy) {
                number(out, "MR-LEG-001", frame, "reth.va", work.remoteVa);
                number(out, "MR-LEG-001", frame, "reth.rkey", Integer.toUnsignedLong(work.rkey));
                number(out, "MR-LEG-001", frame, "reth.dmalen", work.length);
            } else {
                number(out, "MR-REQ-009", frame, "pleth.offset", 0);
                number(out, "MR-REQ-009", frame, "pleth.first", 1);
                number(out, "MR-REQ-009", frame, "pleth.last", 1);
                number(out, "MR-REQ-007", frame, "pleth.msn", work.msn);
                number(out, "MR-REQ-009", frame, "reth.va", work.remoteVa);
                number(out, "MR-REQ-009", frame, "reth.rkey", Integer.toUnsignedLong(work.rkey));
                number(out, "MR-REQ-009", frame, "reth.dmalen", work.length);
            }
            if (!legacy) {
                number(out, "MR-HDR-005", frame, "pleth.rsn", 0);
            }
            number(out, "MR-REQ-010", frame, "bth.ackreq", 1);
            return out;
        }
        if (work.isAtomic()) {
            final Opcode want = work.op == WorkOpcode.COMPARE_SWAP ? Opcode.COMPARE_SWAP : Opcode.FETCH_ADD;
            expect(out, "MR-REQ-006", "bth.opcode", want, opcode);
            if (opcode != want) {
                return out;
            }
            final String rule = "MR-HDR-009";
            number(out, rule, frame, "atomiceth.va", work.remoteVa);
            number(out, rule, frame, "atomiceth.rkey", Integer.toUnsignedLong(work.rkey));
            number(out, rule, frame, "atomiceth.swap", work.swapAdd);
            number(out, rule, frame, "atomiceth.compare", work.op == WorkOpcode.COMPARE_SWAP ? work.compare : 0);
            if (!legacy) {
                number(out, "MR-REQ-007", frame, "pleth.msn", work.msn);
                number(out, "MR-HDR-005", frame, "pleth.rsn", 0);
            }
            number(out, "MR-REQ-010", frame, "bth.ackreq", 1);
            return out;
        }
        final int n = work.span;
        final boolean last = k == n - 1;
        final Opcode want = segmentOpcode(work.op, n == 1 ? 0 : k == 0 ? 1 : last ? 3 : 2);
        expect(out, "MR-REQ-006", "bth.opcode", want, opcode);
        if (opcode != want) {
            return out;
        }
        final long offset = (long) k * pmtu;
        final int length = (int) (last ? work.length - offset : pmtu);
        if (frame.payloadLength() != length) {
            out.add(new Violation(last ? "MR-REQ-005" : "MR-REQ-004", new FieldDiff(
                "payload_len", FrameCheck.number(length), FrameCheck.number(frame.payloadLength()))));
        } else if (work.payload != null && !samePayload(frame, work.payload, (int) offset, length)) {
            final byte[] want2 = Arrays.copyOfRange(work.payload, (int) offset, (int) offset + length);
            final byte[] actual = frame.payload();
            if (!Arrays.equals(want2, actual)) {
                out.add(new Violation("MR-REQ-005", new FieldDiff("payload",
                    "message bytes " + offset + ".." + (offset + length - 1) + " of " + work.describe(),
                    FrameCheck.firstDifference(want2, actual))));
            }
        }
        if (!legacy) {
            number(out, "MR-HDR-004", frame, "pleth.offset", offset);
            number(out, "MR-REQ-007", frame, "pleth.msn", work.msn);
            // MR-REQ-008 numbers the messages that consume a receive WQE, MR-HDR-005 puts the number on each packet:
            // a first packet carrying another nonzero number has the numbering wrong
            number(out, work.consumesReceive() && k == 0 && frame.has(HeaderKind.PLETH) && frame.pleth().rsn() != 0
                ? "MR-REQ-008" : "MR-HDR-005", frame, "pleth.rsn", work.consumesReceive() ? work.rsn : 0);
        }
        if (last) {
            number(out, "MR-REQ-010", frame, "bth.ackreq", 1);
        }
        if (frame.has(HeaderKind.RETH)) {
            final String rule = legacy ? "MR-LEG-001" : "MR-HDR-007";
            number(out, rule, frame, "reth.va", work.remoteVa);
            number(out, rule, frame, "reth.rkey", Integer.toUnsignedLong(work.rkey));
            number(out, rule, frame, "reth.dmalen", work.length);
        }
        if (frame.has(HeaderKind.IMMDT)) {
            number(out, "MR-HDR-010", frame, "immdt", Integer.toUnsignedLong(work.immediate));
        }
        if (frame.has(HeaderKind.IETH)) {
            number(out, "MR-HDR-011", frame, "ieth.rkey",
                Integer.toUnsignedLong(work.immediate));
        }
        return out;
    }

    /** Table 11-4: a read response for {@code psn} of {@code work} with Table 8-1's opcode, MSN, offset and length. */
    boolean fitsReadResponse(final DecodedFrame f, final SendQueueModel.Work work, final int psn) {
        final int k = psn - work.firstPsn;
        final Opcode expected = work.span == 1 ? Opcode.RDMA_READ_RESPONSE_ONLY : k == 0
            ? Opcode.RDMA_READ_RESPONSE_FIRST : k == work.span - 1 ? Opcode.RDMA_READ_RESPONSE_LAST
            : Opcode.RDMA_READ_RESPONSE_MIDDLE;
        final long offset = (long) k * pmtu;
        final long length = Math.max(0, Math.min(pmtu, work.length - offset));
        if (f.opcode() != expected || f.payloadLength() != length) {
            return false;
        }
        return legacy || f.has(HeaderKind.PLETH) && f.pleth().msn() == work.msn
            && f.pleth().messageOffset() == offset;
    }

    /** Table 12-1: position 0 only, 1 first, 2 middle, 3 last. */
    static Opcode segmentOpcode(final WorkOpcode op, final int position) {
        final boolean write = op == WorkOpcode.RDMA_WRITE || op == WorkOpcode.RDMA_WRITE_WITH_IMM;
        if (position == 1) {
            return write ? Opcode.RDMA_WRITE_FIRST : Opcode.SEND_FIRST;
        }
        if (position == 2) {
            return write ? Opcode.RDMA_WRITE_MIDDLE : Opcode.SEND_MIDDLE;
        }
        final boolean only = position == 0;
        return switch (op) {
            case SEND -> only ? Opcode.SEND_ONLY : Opcode.SEND_LAST;
            case SEND_WITH_IMM -> only ? Opcode.SEND_ONLY_WITH_IMMEDIATE : Opcode.SEND_LAST_WITH_IMMEDIATE;
            case SEND_WITH_INV -> only ? Opcode.SEND_ONLY_WITH_INVALIDATE : Opcode.SEND_LAST_WITH_INVALIDATE;
            case RDMA_WRITE -> only ? Opcode.RDMA_WRITE_ONLY : Opcode.RDMA_WRITE_LAST;
            case RDMA_WRITE_WITH_IMM -> only ? Opcode.RDMA_WRITE_ONLY_WITH_IMMEDIATE
                : Opcode.RDMA_WRITE_LAST_WITH_IMMEDIATE;
            default -> throw new IllegalArgumentException(op + " is not segmented");
        };
    }

    /**
     * Whether the frame's payload is {@code message[offset, offset + length)}, compared in place (the copies are made
     * only to describe a difference: a burst compared two copies of every packet's payload).
     */
    private static boolean samePayload(final DecodedFrame frame, final byte[] message, final int offset,
                                       final int length) {
        final java.nio.ByteBuffer buffer = frame.buffer();
        if (!buffer.hasArray() || frame.payloadOffset() < 0) {
            return Arrays.equals(Arrays.copyOfRange(message, offset, offset + length), frame.payload());
        }
        final int from = buffer.arrayOffset() + frame.payloadOffset();
        return Arrays.equals(message, offset, offset + length, buffer.array(), from, from + length);
    }

    private static void expect(final List<Violation> out, final String rule, final String field, final Opcode want,
                               final Opcode actual) {
        if (want != actual) {
            out.add(new Violation(rule, new FieldDiff(field, FrameCheck.describeOpcode(want),
                FrameCheck.describeOpcode(actual))));
        }
    }

    private static void number(final List<Violation> out, final String rule, final DecodedFrame frame,
                               final String field, final long want) {
        final org.metaroce.mrct.wire.FrameField f = frame.field(field);
        if (f == null) {
            out.add(new Violation(rule, new FieldDiff(field, FrameCheck.describe(field, want), "absent")));
            return;
        }
        final long actual = frame.get(f);
        if (actual != want) {
            out.add(new Violation(rule, new FieldDiff(field, FrameCheck.describe(field, want),
                FrameCheck.describe(field, actual))));
        }
    }
}
