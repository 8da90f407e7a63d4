package org.metaroce.mrct.oracle.internal;

import org.metaroce.mrct.oracle.FrameRule;
import org.metaroce.mrct.oracle.QpFacts;
import org.metaroce.mrct.wire.AethSyndrome;
import org.metaroce.mrct.wire.DecodedFrame;
import org.metaroce.mrct.wire.HeaderKind;
import org.metaroce.mrct.wire.OpKind;
import org.metaroce.mrct.wire.Opcode;
import org.metaroce.mrct.wire.Position;
import org.metaroce.mrct.wire.Psn;

/**
 * The rules of the extension headers a frame carries on its own (sections 2 and 5): PLETH, AETH, AtomicETH and
 * SACKETH. One method per rule, each judging a frame that has the header and reporting every field that breaks it.
 */
public final class HeaderChecks {
    private HeaderChecks() {
    }

    /** MR-HDR-002: pleth.first and pleth.last as Table 2-2 gives them for the opcode's position. */
    public static void hdr002(final DecodedFrame f, final Collector out) {
        if (!f.has(HeaderKind.PLETH)) {
            return;
        }
        out.examined(FrameRule.HDR_002);
        final Position position = f.opcode().position();
        final boolean first = position.isFirst() || position == Position.NONE;
        final boolean last = position.isLast() || position == Position.NONE;
        if (f.pleth().first() != first || f.pleth().last() != last) {
            out.add(FrameRule.HDR_002, "pleth.first/last", Text.bit(first) + "/" + Text.bit(last),
                Text.bit(f.pleth().first()) + "/" + Text.bit(f.pleth().last()));
        }
    }

    /** MR-HDR-003: bits 5-0 of pleth.flags and pleth.resv 0. */
    public static void hdr003(final DecodedFrame f, final Collector out) {
        if (!f.has(HeaderKind.PLETH)) {
            return;
        }
        out.examined(FrameRule.HDR_003);
        final int flags = f.pleth().flags() & 0x3F;
        if (flags != 0) {
            out.add(FrameRule.HDR_003, "pleth.flags_resv", "0", Text.hex(flags));
        }
        if (f.pleth().reserved() != 0) {
            out.add(FrameRule.HDR_003, "pleth.resv", "0", Text.hex(f.pleth().reserved()));
        }
    }

    /**
     * MR-RD-004, the part a read response shows on its own: pleth.rsn 0. (Its MSN and offset depend on the READ
     * REQUEST, which the stream checks of the caller know.)
     */
    public static void rd004(final DecodedFrame f, final Collector out) {
        if (!f.has(HeaderKind.PLETH) || f.opcode().kind() != OpKind.RDMA_READ_RESPONSE) {
            return;
        }
        out.examined(FrameRule.RD_004);
        if (f.pleth().rsn() != 0) {
            out.add(FrameRule.RD_004, "pleth.rsn", "0", Integer.toString(f.pleth().rsn()));
        }
    }

    /**
     * MR-HDR-008: aeth.syndrome bit 7 clear and a value of Table D-1 a device sends (0x1F, an RNR NAK, 0x60-0x63);
     * 0x1F in every read response and atomic acknowledgement. In a TVer 0 frame an ACK syndrome may carry any credit
     * count (0x00-0x1F), as RoCEv2 allows.
     */
    public static void hdr008(final DecodedFrame f, final Collector out) {
        if (!f.has(HeaderKind.AETH)) {
            return;
        }
        out.examined(FrameRule.HDR_008);
        final int syndrome = f.aeth().syndromeValue();
        final OpKind kind = f.opcode().kind();
        final boolean response = kind == OpKind.RDMA_READ_RESPONSE || kind == OpKind.ATOMIC_ACKNOWLEDGE;
        final boolean rnrNak = AethSyndrome.valueOf(syndrome).type() == AethSyndrome.Type.RNR_NAK;
        // TVer 0: an ACK syndrome's bits 4-0 are a credit count, any of 0x00-0x1F (Appendix F.2)
        final boolean rocev2 = out.rocev2Values(FrameRule.HDR_008);
        final boolean ack = rocev2 ? syndrome <= 0x1F : syndrome == 0x1F;
        final boolean allowed = response ? ack : ack || rnrNak || syndrome >= 0x60 && syndrome <= 0x63;
        if (!allowed) {
            final String acks = rocev2 ? "0x00-0x1F" : "0x1F";
            out.add(FrameRule.HDR_008, "aeth.syndrome", response ? acks : "a value of Table D-1 a device sends ("
                + acks + ", 0x20-0x3F, 0x60-0x63)", Text.hex(syndrome));
        }
    }

    /** MR-HDR-009: an AtomicETH with an 8-byte aligned atomiceth.va, and atomiceth.compare 0 in a FETCH ADD. */
    public static void hdr009(final DecodedFrame f, final Collector out) {
        if (!f.has(HeaderKind.ATOMIC_ETH)) {
            return;
        }
        out.examined(FrameRule.HDR_009);
        final long va = f.atomicEth().va();
        if ((va & 7) != 0) {
            out.add(FrameRule.HDR_009, "atomiceth.va", "a multiple of 8", Text.hex64(va));
        }
        if (f.opcode() == Opcode.FETCH_ADD && f.atomicEth().compare() != 0) {
            out.add(FrameRule.HDR_009, "atomiceth.compare", "0 in a FETCH ADD", Text.hex64(f.atomicEth().compare()));
        }
    }

    /** MR-ACK-013: no NAK 0x60 from a TVer 1 QP. */
    public static void ack013(final DecodedFrame f, final Collector out) {
        if (f.opcode() != Opcode.ACKNOWLEDGE || f.tver() != 1 || !f.has(HeaderKind.AETH)) {
            return;
        }
        out.examined(FrameRule.ACK_013);
        if (f.aeth().syndromeValue() == AethSyndrome.NAK_PSN_SEQUENCE_ERROR.value()) {
            out.add(FrameRule.ACK_013, "aeth.syndrome", "not 0x60 on a TVer 1 QP", "0x60");
        }
    }

    /**
     * MR-ACK-002, what one SACKETH shows: sacketh.resv 0, bit 0 (ePSN) clear, and in a NAK or RNR NAK the rejected
     * packet (bth.psn) not marked recorded.
     */
    public static void ack002(final DecodedFrame f, final QpFacts qp, final Collector out) {
        if (!f.has(HeaderKind.SACKETH)) {
            return;
        }
        out.examined(FrameRule.ACK_002);
        final int base = f.sacketh().basePsn();
        final long bitmap = f.sacketh().bitmap();
        if (f.sacketh().reserved() != 0) {
            out.add(FrameRule.ACK_002, "sacketh.resv", "0", Text.hex(f.sacketh().reserved()));
        }
        if (bitmap < 0) {
            out.add(FrameRule.ACK_002, "sacketh.bitmap", "bit 0 clear (ePSN " + Text.psn(base, qp.psnOrigin())
                + " is never recorded)", Text.hex64(bitmap));
        }
        final AethSyndrome.Type type = f.has(HeaderKind.AETH) ? f.aeth().syndrome().type() : null;
        if (type == AethSyndrome.Type.NAK || type == AethSyndrome.Type.RNR_NAK) {
            final int i = Psn.diff(f.bth().psn() & Psn.MASK, base);
            if (i > 0 && i < 64 && (bitmap & (Long.MIN_VALUE >>> i)) != 0) {
                out.add(FrameRule.ACK_002, "sacketh.bitmap bit " + i, "0 (the rejected PSN "
                    + Text.psn(f.bth().psn(), qp.psnOrigin()) + " is not recorded)", "1");
            }
        }
    }

    /** MR-ACK-001: an ACK (syndrome type ACK, with a SACKETH) carries bth.psn = sacketh.base - 1. */
    public static void ack001(final DecodedFrame f, final QpFacts qp, final Collector out) {
        if (!f.has(HeaderKind.SACKETH) || !f.has(HeaderKind.AETH)
            || f.aeth().syndrome().type() != AethSyndrome.Type.ACK) {
            return;
        }
        out.examined(FrameRule.ACK_001);
        final int base = f.sacketh().basePsn();
        if (Psn.add(f.bth().psn(), 1) != base) {
            out.add(FrameRule.ACK_001, "bth.psn", "sacketh.base - 1 = " + Text.psn(Psn.add(base, -1), qp.psnOrigin()),
                Text.psn(f.bth().psn(), qp.psnOrigin()));
        }
    }
}
