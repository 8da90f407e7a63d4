package org.metaroce.mrct.oracle.internal;

import org.metaroce.mrct.oracle.Basis;
import org.metaroce.mrct.oracle.FrameRule;
import org.metaroce.mrct.oracle.QpFacts;
import org.metaroce.mrct.wire.BigEndian;
import org.metaroce.mrct.wire.DecodedFrame;
import org.metaroce.mrct.wire.HeaderKind;
import org.metaroce.mrct.wire.HeaderLayout;
import org.metaroce.mrct.wire.OpKind;
import org.metaroce.mrct.wire.Opcode;
import org.metaroce.mrct.wire.Transport;
import org.metaroce.mrct.wire.header.BthFlyweight;

/**
 * The rules of the BTH, the CNP, the pad and the opcode's layout (sections 1.7 to 1.9, 2.1, 2.9 and 16): one method
 * per rule, each reporting every field that breaks it.
 */
public final class TransportChecks {
    /** Per TVer (0, 1) and opcode: an RC opcode a device sends with that TVer (Table 2-1, Table D-4). */
    private static final boolean[][] SENDABLE = new boolean[2][256];

    static {
        for (int tver = 0; tver < 2; tver++) {
            for (int code = 0; code < 256; code++) {
                final Opcode opcode = Opcode.valueOf(code);
                SENDABLE[tver][code] = opcode.isMetaRoceV1() && opcode.transport() == Transport.RC
                    && HeaderLayout.extensionHeaders(opcode, tver) != null;
            }
        }
    }

    private TransportChecks() {
    }

    /**
     * MR-WIRE-013, every packet but a CNP: bth.m, fecn, becn, resv6a, resv7 0; bth.tver 0 or 1 and the QP's (when
     * known); bth.ackreq and bth.se 0 in a response; bth.se only on the last packet of a SEND or RDMA WRITE WITH
     * IMMEDIATE; bth.pkey the QP's (when known).
     */
    public static void wire013(final DecodedFrame f, final QpFacts qp, final Collector out) {
        final Opcode opcode = f.opcode();
        if (opcode == Opcode.CNP) {
            return;
        }
        out.examined(FrameRule.WIRE_013);
        final BthFlyweight bth = f.bth();
        // the three bytes that hold the bits judged here, each read once: every frame of a capture comes through
        final int at = f.offset(HeaderKind.BTH);
        final int flags = BigEndian.u8(f.buffer(), at + BthFlyweight.FLAGS_OFFSET);
        final int fecnBecn = BigEndian.u8(f.buffer(), at + BthFlyweight.FECN_BECN_OFFSET);
        final int ackReqByte = BigEndian.u8(f.buffer(), at + BthFlyweight.ACKREQ_OFFSET);
        if ((flags & 0x40) != 0 || fecnBecn != 0 || (ackReqByte & 0x7F) != 0) {
            zero(out, FrameRule.WIRE_013, "bth.m", bth.migReq() ? 1 : 0);
            zero(out, FrameRule.WIRE_013, "bth.fecn", bth.fecn() ? 1 : 0);
            zero(out, FrameRule.WIRE_013, "bth.becn", bth.becn() ? 1 : 0);
            zero(out, FrameRule.WIRE_013, "bth.resv6a", bth.resv6a());
            zero(out, FrameRule.WIRE_013, "bth.resv7", bth.resv7());
        }
        final int tver = f.tver();
        if (tver != 0 && tver != 1) {
            out.add(FrameRule.WIRE_013, "bth.tver", "0 or 1", Integer.toString(tver));
        } else if (qp.tver() >= 0 && tver != qp.tver()) {
            out.add(FrameRule.WIRE_013, "bth.tver", qp.tver() + " (the QP's tver)", Integer.toString(tver),
                Basis.configured("the QP's tver attribute"));
        }
        final boolean request = opcode.kind().isRequest();
        if (!request && (ackReqByte & 0x80) != 0) {
            out.add(FrameRule.WIRE_013, "bth.ackreq", "0 in a response", "1");
        }
        if ((flags & 0x80) != 0) {
            if (!request) {
                out.add(FrameRule.WIRE_013, "bth.se", "0 in a response", "1");
            } else if (!opcode.position().isLast() || !(opcode.kind() == OpKind.SEND
                || opcode.kind() == OpKind.RDMA_WRITE && opcode.hasImmediate())) {
                out.add(FrameRule.WIRE_013, "bth.se",
                    "0 but on the last packet of a SEND or RDMA WRITE WITH IMMEDIATE", "1");
            }
        }
        pkey(f, qp, FrameRule.WIRE_013, out);
    }

    /**
     * MR-HDR-012, a CNP: the values of Table 2-11 (TVer 0, BECN 1, PSN 0, every other BTH bit 0, P_Key 0xFFFF) and exactly 16 reserved bytes of 0 before the ICRC (not judged on a frame the capture cut).
     */
    public static void hdr012(final DecodedFrame f, final QpFacts qp, final boolean truncated, final Collector out) {
        if (f.opcode() != Opcode.CNP) {
            return;
        }
        out.examined(FrameRule.HDR_012);
        final BthFlyweight bth = f.bth();
        zero(out, FrameRule.HDR_012, "bth.tver", f.tver());
        zero(out, FrameRule.HDR_012, "bth.se", bth.solicitedEvent() ? 1 : 0);
        zero(out, FrameRule.HDR_012, "bth.m", bth.migReq() ? 1 : 0);
        zero(out, FrameRule.HDR_012, "bth.padcnt", bth.padCount());
        zero(out, FrameRule.HDR_012, "bth.fecn", bth.fecn() ? 1 : 0);
        zero(out, FrameRule.HDR_012, "bth.resv6a", bth.resv6a());
        if (!bth.becn()) {
            out.add(FrameRule.HDR_012, "bth.becn", "1", "0");
        }
        zero(out, FrameRule.HDR_012, "bth.ackreq", bth.ackReq() ? 1 : 0);
        zero(out, FrameRule.HDR_012, "bth.resv7", bth.resv7());
        zero(out, FrameRule.HDR_012, "bth.psn", bth.psn());
        if (bth.pkey() != 0xFFFF) { // the default P_Key whatever the QP's (Table 2-11, v1.1)
            out.add(FrameRule.HDR_012, "bth.pkey", "0xFFFF", Text.hex(bth.pkey()));
        }
        if (truncated) {
            return;
        }
        if (f.dataRegionLength() != 0) {
            out.add(FrameRule.HDR_012, "cnp", "16 reserved bytes and the ICRC after the BTH",
                f.dataRegionLength() + " more bytes");
        }
        final int reserved = f.offset(HeaderKind.CNP_RESERVED);
        if (reserved >= 0) {
            for (int i = 0; i < 16; i++) {
                final int value = f.buffer().get(reserved + i) & 0xFF;
                if (value != 0) {
                    out.add(FrameRule.HDR_012, "cnp.reserved", "16 bytes of 0", Text.hex(value) + " at byte " + i);
                    break;
                }
            }
        }
    }

    /** MR-WIRE-019: the data region a multiple of 4 (so padcnt is (-payload) mod 4) and every pad byte 0. */
    public static void wire019(final DecodedFrame f, final boolean truncated, final Collector out) {
        final int data = f.dataRegionLength();
        if (truncated || data < 0) {
            return;
        }
        out.examined(FrameRule.WIRE_019);
        final int pad = f.padLength();
        if (data % 4 != 0) {
            out.add(FrameRule.WIRE_019, "bth.padcnt", Integer.toString((-f.payloadLength()) & 3)
                + " (payload and pad a multiple of 4)", Integer.toString(pad));
            return;
        }
        final int at = f.payloadOffset() + f.payloadLength();
        for (int i = 0; i < pad; i++) {
            final int value = f.buffer().get(at + i) & 0xFF;
            if (value != 0) {
                out.add(FrameRule.WIRE_019, "pad", "zero bytes", Text.hex(value) + " in pad byte " + i);
                return;
            }
        }
    }

    /**
     * MR-HDR-001 (a TVer 1 packet) and MR-LEG-001 (a TVer 0 packet): an opcode the QP sends with that TVer (Table 2-1,
     * Table D-4), and an empty data region where the opcode carries no payload. The extension headers themselves
     * follow from the opcode in the decoder. A TVer 0 FLUSH or ATOMIC WRITE (InfiniBand's memory placement
     * extensions) is legal RoCEv2 in the traffic of a device not known to be a MetaRoCE device (Appendix F.2): it is
     * judged by its InfiniBand layout, no payload for FLUSH and exactly 8 bytes for ATOMIC WRITE; a MetaRoCE device's
     * legacy QP never sends either (Table D-4).
     */
    public static void layout(final DecodedFrame f, final boolean truncated, final Collector out) {
        final Opcode opcode = f.opcode();
        final int tver = f.tver();
        if (opcode == Opcode.CNP || tver != 0 && tver != 1) {
            return;
        }
        final FrameRule rule = tver == 1 ? FrameRule.HDR_001 : FrameRule.LEG_001;
        out.examined(rule);
        if (tver == 0 && !out.metaroceSender() && opcode.isMemoryPlacement()) {
            final int payload = f.payloadLength();
            final int wanted = opcode.kind() == OpKind.ATOMIC_WRITE ? 8 : 0;
            if (!truncated && f.dataRegionLength() >= 0 && payload != wanted) {
                out.add(rule, "payload_len", wanted + " for " + opcode.name() + " (InfiniBand memory placement "
                    + "extensions)", Integer.toString(payload));
            }
            return;
        }
        if (!SENDABLE[tver][opcode.code()]) {
            out.add(rule, "bth.opcode", tver == 1 ? "an opcode of Table 2-1" : "an RC opcode of Table D-4",
                opcode.name());
            return;
        }
        final int data = f.dataRegionLength();
        if (!truncated && !HeaderLayout.carriesPayload(opcode) && data != 0) {
            out.add(rule, "payload_len", "0 for " + opcode.name(), Integer.toString(data));
        }
    }

    private static void pkey(final DecodedFrame f, final QpFacts qp, final FrameRule rule, final Collector out) {
        if (qp.pkey() != null && f.bth().pkey() != qp.pkey()) {
            out.add(rule, "bth.pkey", Text.hex(qp.pkey()) + " (" + qp.pkeyBasis().source() + ")",
                Text.hex(f.bth().pkey()), qp.pkeyBasis());
        }
    }

    private static void zero(final Collector out, final FrameRule rule, final String field, final int value) {
        if (value != 0) {
            out.add(rule, field, "0", Integer.toString(value));
        }
    }
}
