package org.metaroce.mrct.analyzer.internal;

import java.nio.ByteBuffer;
import org.metaroce.mrct.harness.result.FieldDiff;
import org.metaroce.mrct.wire.AethSyndrome;
import org.metaroce.mrct.wire.BigEndian;
import org.metaroce.mrct.wire.DecodedFrame;
import org.metaroce.mrct.wire.HeaderKind;
import org.metaroce.mrct.wire.HeaderLayout;
import org.metaroce.mrct.wire.OpKind;
import org.metaroce.mrct.wire.Opcode;
import org.metaroce.mrct.wire.Position;
import org.metaroce.mrct.wire.Psn;
import org.metaroce.mrct.wire.Transport;
import org.metaroce.mrct.wire.header.Ipv4Flyweight;

/**
 * The transmit rules one frame must meet on its own (sections 1 and 2, and the frame-level parts of 5 and 14): every
 * check here reads the frame in hand only, so its findings are definite. Fields that switches may rewrite and that
 * the ICRC therefore masks (DSCP, ECN, TTL) are judged only where a network could not have changed them: a data
 * packet without ECT was sent so (RFC 3168 forbids clearing ECT), but a CE mark is a network's unless the capture is
 * the device's own.
 */
final class FrameChecks {
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

    private FrameChecks() {
    }

    /**
     * Checks the frame. {@code fcs} is the length of the FCS the capture keeps at the end of each frame, or -1 when
     * the file does not say.
     */
    static void check(final Frame fr, final Context cx, final int fcs) {
        final Flow flow = fr.flow;
        final Connection c = flow.connection;
        final Judge judge = cx.judge;
        final DecodedFrame f = fr.decoded;
        final boolean cnp = fr.isCnp();

        if (!fr.cut) {
            Judge.observe(c, flow, Check.ICRC);
            if (!fr.icrcOk) {
                final int computed = f.computeIcrc();
                final int carried = f.icrcOnWire();
                judge.report(c, flow, Check.ICRC, Basis.DEFINITE, fr,
                    () -> fr.opcode.name() + " at PSN " + Text.psn(fr.psn) + " carries ICRC "
                        + Text.hex32(carried) + " but its bytes give " + Text.hex32(computed)
                        + " (a faulty link before the capture point would also do this)", null,
                    new FieldDiff("icrc", Text.hex32(computed), Text.hex32(carried)));
            }
        }
        Judge.observe(c, flow, Check.ETHERNET);
        if (f.has(HeaderKind.VLAN) && f.eth().vlanDei() != 0) {
            judge.report(c, flow, Check.ETHERNET, Basis.DEFINITE, fr,
                () -> "the 802.1Q tag has DEI 1", null, new FieldDiff("vlan.dei", "0", "1"));
        }
        checkIp(fr, cx, fcs);
        Judge.observe(c, flow, Check.UDP);
        final int udpChecksum = f.udp().checksum();
        if (udpChecksum != 0) {
            judge.report(c, flow, Check.UDP, Basis.DEFINITE, fr,
                () -> fr.opcode.name() + " is sent with a UDP checksum; RoCE frames carry 0", null,
                new FieldDiff("udp.checksum", "0", Text.hex(udpChecksum)));
        }
        if (fr.isData()) {
            Judge.observe(c, flow, Check.SOURCE_PORT);
            if (fr.sourcePort < 0xC000) {
                judge.report(c, flow, Check.SOURCE_PORT, Basis.DEFINITE, fr,
                    () -> fr.opcode.name() + " at PSN " + Text.psn(fr.psn) + " has UDP source port " + fr.sourcePort,
                    null, new FieldDiff("udp.sport", "0xC000-0xFFFF", fr.sourcePort + " (0x"
                        + Integer.toHexString(fr.sourcePort) + ")"));
            }
        }
        if (cnp) {
            checkCnp(fr, cx);
        } else {
            checkBth(fr, cx);
            checkLayout(fr, cx);
        }
        if (!fr.cut) {
            checkPad(fr, cx);
        }
        if (f.has(HeaderKind.PLETH)) {
            checkPleth(fr, cx);
        }
        if (f.has(HeaderKind.AETH)) {
            checkAeth(fr, cx);
        }
        if (f.has(HeaderKind.SACKETH)) {
            checkSacketh(fr, cx);
        }
        if (f.has(HeaderKind.ATOMIC_ETH)) {
            Judge.observe(c, flow, Check.ATOMIC_ETH);
            final long va = f.atomicEth().va();
            final long compare = f.atomicEth().compare();
            if ((va & 7) != 0 || fr.opcode == Opcode.FETCH_ADD && compare != 0) {
                judge.report(c, flow, Check.ATOMIC_ETH, Basis.DEFINITE, fr,
                    () -> fr.opcode.name() + " at PSN " + Text.psn(fr.psn) + ((va & 7) != 0 ? " targets "
                        + Text.hex64(va) + ", not a multiple of 8" : " carries atomiceth.compare "
                        + Text.hex64(compare) + " (0 in a FETCH ADD)"), null,
                    (va & 7) != 0 ? new FieldDiff("atomiceth.va", "a multiple of 8", Text.hex64(va))
                        : new FieldDiff("atomiceth.compare", "0", Text.hex64(compare)));
            }
        }
        if (fr.isData() && fr.tver == 1) {
            Judge.observe(c, flow, Check.ECT);
            if (fr.ecn == 0) {
                judge.report(c, flow, Check.ECT, Basis.DEFINITE, fr,
                    () -> fr.opcode.name() + " at PSN " + Text.psn(fr.psn) + " is sent Not-ECT; every data packet "
                        + "is ECN-capable", null, new FieldDiff("ip.ecn", "ECT(0) or ECT(1)", "0 (Not-ECT)"));
            }
        }
        if (cx.judge.atDevice()) {
            Judge.observe(c, flow, Check.NO_CE);
            if (fr.ecn == 3) {
                judge.report(c, flow, Check.NO_CE, Basis.DEFINITE, fr,
                    () -> fr.opcode.name() + " is sent with ECN CE, which only the network sets", null,
                    new FieldDiff("ip.ecn", "not CE", "3 (CE)"));
            }
        }
    }

    private static void checkIp(final Frame fr, final Context cx, final int fcs) {
        final Flow flow = fr.flow;
        final Connection c = flow.connection;
        final DecodedFrame f = fr.decoded;
        final int link = f.has(HeaderKind.VLAN) ? 18 : 14;
        final int trailing = f.frameOffset() + f.frameLength() - f.packetEnd();
        final boolean trailingOk = trailing == 0 || f.frameLength() <= 60 + link - 14
            || trailing == fcs || fcs < 0 && trailing == 4 || fr.cut;
        if (f.has(HeaderKind.IPV4)) {
            final Ipv4Flyweight ip = f.ipv4();
            Judge.observe(c, flow, Check.IPV4);
            String field = null;
            String expected = null;
            String actual = null;
            if (ip.ihl() != 5) {
                field = "ip.ihl";
                expected = "5";
                actual = Integer.toString(ip.ihl());
            } else if (!ip.dontFragment()) {
                field = "ip.df";
                expected = "1";
                actual = "0";
            } else if (!fr.ipChecksumOk) {
                field = "ip.checksum";
                expected = Text.hex(ip.computeChecksum());
                actual = Text.hex(ip.checksum());
            } else if (ip.ttl() == 0) {
                field = "ip.ttl";
                expected = "1 to 255";
                actual = "0";
            } else if (!trailingOk) {
                field = "ip.total_length";
                expected = Integer.toString(ip.totalLength() + trailing);
                actual = Integer.toString(ip.totalLength());
            }
            if (field != null) {
                final FieldDiff diff = new FieldDiff(field, expected, actual);
                cx.judge.report(c, flow, Check.IPV4, Basis.DEFINITE, fr,
                    () -> fr.opcode.name() + " has " + diff.field() + " " + diff.actual() + " (expected "
                        + diff.expected() + ")" + (diff.field().equals("ip.total_length") ? ": " + trailing
                        + " bytes follow the ICRC in a frame that needs no Ethernet padding" : ""), null, diff);
            }
        } else if (f.has(HeaderKind.IPV6)) {
            Judge.observe(c, flow, Check.IPV6);
            final int hop = f.ipv6().hopLimit();
            if (hop == 0 || !trailingOk) {
                final FieldDiff diff = hop == 0 ? new FieldDiff("ip.ttl", "1 to 255", "0")
                    : new FieldDiff("ip6.payload_length", Integer.toString(f.ipv6().payloadLength() + trailing),
                        Integer.toString(f.ipv6().payloadLength()));
                cx.judge.report(c, flow, Check.IPV6, Basis.DEFINITE, fr,
                    () -> fr.opcode.name() + " has " + diff.field() + " " + diff.actual() + " (expected "
                        + diff.expected() + ")", null, diff);
            }
        }
    }

    private static void checkBth(final Frame fr, final Context cx) {
        final Flow flow = fr.flow;
        final Connection c = flow.connection;
        final ByteBuffer b = fr.buffer;
        final int bth = fr.decoded.offset(HeaderKind.BTH);
        Judge.observe(c, flow, Check.BTH);
        final int flags = BigEndian.u8(b, bth + 1);
        final int byte4 = BigEndian.u8(b, bth + 4);
        final int byte8 = BigEndian.u8(b, bth + 8);
        String field = null;
        String expected = "0";
        String actual = null;
        if ((flags & 0x40) != 0) {
            field = "bth.m";
            actual = "1";
        } else if ((byte4 & 0x80) != 0) {
            field = "bth.fecn";
            actual = "1";
        } else if ((byte4 & 0x40) != 0) {
            field = "bth.becn";
            actual = "1";
        } else if ((byte4 & 0x3F) != 0) {
            field = "bth.resv6a";
            actual = Text.hex(byte4 & 0x3F);
        } else if ((byte8 & 0x7F) != 0) {
            field = "bth.resv7";
            actual = Text.hex(byte8 & 0x7F);
        } else if (fr.tver != 0 && fr.tver != 1) {
            field = "bth.tver";
            expected = "0 or 1";
            actual = Integer.toString(fr.tver);
        } else if (c.tver >= 0 && fr.tver != c.tver) {
            field = "bth.tver";
            expected = c.tver + " (the QP's tver)";
            actual = Integer.toString(fr.tver);
        } else if (!fr.isRequest() && (fr.ackReq || (flags & 0x80) != 0)) {
            field = fr.ackReq ? "bth.ackreq" : "bth.se";
            expected = "0 in a response";
            actual = "1";
        } else if ((flags & 0x80) != 0 && (!fr.position.isLast()
            || !(fr.kind == OpKind.SEND || fr.kind == OpKind.RDMA_WRITE && fr.opcode.hasImmediate()))) {
            field = "bth.se";
            expected = "0 but on the last packet of a SEND or WRITE WITH IMMEDIATE";
            actual = "1";
        } else if (flow.pkey >= 0 && fr.pkey != flow.pkey) {
            field = "bth.pkey";
            expected = Text.hex(flow.pkey) + " (frame " + flow.pkeyFrame + ")";
            actual = Text.hex(fr.pkey);
        }
        if (flow.pkey < 0) {
            flow.pkey = fr.pkey;
            flow.pkeyFrame = fr.number;
        }
        if (field != null) {
            final FieldDiff diff = new FieldDiff(field, expected, actual);
            cx.judge.report(c, flow, Check.BTH, Basis.DEFINITE, fr,
                () -> fr.opcode.name() + " at PSN " + Text.psn(fr.psn) + " has " + diff.field() + " " + diff.actual()
                    + " (expected " + diff.expected() + ")", null, diff);
        }
    }

    /** Table 2-1 (TVer 1) or D-4 (TVer 0): an opcode that exists for the TVer, and no payload where it has none. */
    private static void checkLayout(final Frame fr, final Context cx) {
        final Flow flow = fr.flow;
        final Connection c = flow.connection;
        final boolean v1 = fr.tver == 1;
        final Check check = v1 ? Check.HEADERS : Check.LEGACY_HEADERS;
        if (fr.tver != 0 && fr.tver != 1) {
            return;
        }
        Judge.observe(c, flow, check);
        final Opcode opcode = fr.opcode;
        final boolean known = SENDABLE[fr.tver][opcode.code()];
        if (!known) {
            cx.judge.report(c, flow, check, Basis.DEFINITE, fr,
                () -> "opcode " + opcode.name() + " is not one a " + (v1 ? "MetaRoCE v1 (TVer 1)" : "TVer 0 RC")
                    + " QP sends", null, new FieldDiff("bth.opcode", v1 ? "an opcode of Table 2-1"
                    : "an RC opcode of Table D-4", opcode.name()));
            return;
        }
        final int data = fr.decoded.dataRegionLength();
        if (!fr.cut && !HeaderLayout.carriesPayload(opcode) && data != 0) {
            cx.judge.report(c, flow, check, Basis.DEFINITE, fr,
                () -> opcode.name() + " has " + data + " bytes after its headers; it carries no payload", null,
                new FieldDiff("payload_len", "0", Integer.toString(data)));
        }
    }

    private static void checkPad(final Frame fr, final Context cx) {
        final Flow flow = fr.flow;
        final Connection c = flow.connection;
        final DecodedFrame f = fr.decoded;
        final int data = f.dataRegionLength();
        if (data < 0) {
            return;
        }
        Judge.observe(c, flow, Check.PAD);
        final int pad = f.padLength();
        if (data % 4 != 0) {
            cx.judge.report(c, flow, Check.PAD, Basis.DEFINITE, fr,
                () -> fr.opcode.name() + " has " + fr.payloadLength + " payload bytes and bth.padcnt " + pad
                    + ": payload and pad are not a multiple of 4", null,
                new FieldDiff("bth.padcnt", "(-payload length) mod 4, payload and pad a multiple of 4",
                    Integer.toString(pad)));
            return;
        }
        final int at = f.payloadOffset() + fr.payloadLength;
        for (int i = 0; i < pad; i++) {
            if (fr.buffer.get(at + i) != 0) {
                final int index = i;
                cx.judge.report(c, flow, Check.PAD, Basis.DEFINITE, fr,
                    () -> fr.opcode.name() + " has a non-zero pad byte (pad byte " + index + ")", null,
                    new FieldDiff("pad", "zero bytes", Text.hex(fr.buffer.get(at + i) & 0xFF)));
                return;
            }
        }
    }

    private static void checkPleth(final Frame fr, final Context cx) {
        final Flow flow = fr.flow;
        final Connection c = flow.connection;
        final Position position = fr.position;
        final boolean wantFirst = position.isFirst() || position == Position.NONE;
        final boolean wantLast = position.isLast() || position == Position.NONE;
        Judge.observe(c, flow, Check.PLETH_FLAGS);
        if (fr.plethFirst() != wantFirst || fr.plethLast() != wantLast) {
            cx.judge.report(c, flow, Check.PLETH_FLAGS, Basis.DEFINITE, fr,
                () -> fr.opcode.name() + " at PSN " + Text.psn(fr.psn) + " has pleth.first " + bit(fr.plethFirst())
                    + " and pleth.last " + bit(fr.plethLast()), null,
                new FieldDiff("pleth.first/last", bit(wantFirst) + "/" + bit(wantLast),
                    bit(fr.plethFirst()) + "/" + bit(fr.plethLast())));
        }
        Judge.observe(c, flow, Check.PLETH_RESERVED);
        final int flagsResv = fr.decoded.pleth().flags() & 0x3F;
        final int resv = fr.decoded.pleth().reserved();
        if (flagsResv != 0 || resv != 0) {
            cx.judge.report(c, flow, Check.PLETH_RESERVED, Basis.DEFINITE, fr,
                () -> fr.opcode.name() + " at PSN " + Text.psn(fr.psn) + " has non-zero PLETH reserved bits", null,
                new FieldDiff("pleth.flags_resv/pleth.resv", "0/0", Text.hex(flagsResv) + "/" + Text.hex(resv)));
        }
    }

    private static String bit(final boolean value) {
        return value ? "1" : "0";
    }

    private static void checkAeth(final Frame fr, final Context cx) {
        final Flow flow = fr.flow;
        final Connection c = flow.connection;
        final int syndrome = fr.syndrome();
        final AethSyndrome.Type type = AethSyndrome.valueOf(syndrome).type();
        Judge.observe(c, flow, Check.AETH);
        final boolean responseAeth = fr.kind == OpKind.RDMA_READ_RESPONSE || fr.kind == OpKind.ATOMIC_ACKNOWLEDGE;
        final boolean allowed = responseAeth ? syndrome == 0x1F
            : syndrome == 0x1F || type == AethSyndrome.Type.RNR_NAK || syndrome >= 0x60 && syndrome <= 0x63;
        if (!allowed) {
            cx.judge.report(c, flow, Check.AETH, Basis.DEFINITE, fr,
                () -> fr.opcode.name() + " carries aeth.syndrome " + Text.hex(syndrome) + ", which a device never "
                    + "sends " + (responseAeth ? "in a read response or atomic acknowledgement (0x1F only)"
                    : "(Table D-1: 0x1F, 0x20-0x3F, 0x61-0x63, and 0x60 from a TVer 0 QP)"), null,
                new FieldDiff("aeth.syndrome", responseAeth ? "0x1f" : "a value of Table D-1 a device sends",
                    Text.hex(syndrome)));
        }
        if (fr.opcode == Opcode.ACKNOWLEDGE && fr.tver == 1) {
            Judge.observe(c, flow, Check.NO_NAK_60);
            if (syndrome == 0x60) {
                cx.judge.report(c, flow, Check.NO_NAK_60, Basis.DEFINITE, fr,
                    () -> "a TVer 1 QP sends NAK 0x60 (PSN sequence error) for PSN " + Text.psn(fr.psn)
                        + "; out-of-order arrivals are answered with an ACK", null,
                    new FieldDiff("aeth.syndrome", "not 0x60", "0x60"));
            }
        }
    }

    private static void checkSacketh(final Frame fr, final Context cx) {
        final Flow flow = fr.flow;
        final Connection c = flow.connection;
        final int base = fr.decoded.sacketh().basePsn();
        final long bitmap = fr.decoded.sacketh().bitmap();
        final int resv = fr.decoded.sacketh().reserved();
        final AethSyndrome.Type type = fr.syndromeType();
        Judge.observe(c, flow, Check.SACK);
        if (resv != 0 || bitmap < 0) {
            cx.judge.report(c, flow, Check.SACK, Basis.DEFINITE, fr,
                () -> resv != 0 ? "sacketh.resv is " + Text.hex(resv) : "bit 0 of sacketh.bitmap is set, but it "
                    + "stands for ePSN (" + Text.psn(base) + "), which is never recorded", null,
                resv != 0 ? new FieldDiff("sacketh.resv", "0", Text.hex(resv))
                    : new FieldDiff("sacketh.bitmap", "bit 0 clear", String.format("%016x", bitmap)));
        }
        if (type == AethSyndrome.Type.NAK || type == AethSyndrome.Type.RNR_NAK) {
            final int i = Psn.diff(fr.psn, base);
            if (i > 0 && i < 64 && (bitmap & (Long.MIN_VALUE >>> i)) != 0) {
                cx.judge.report(c, flow, Check.SACK, Basis.DEFINITE, fr,
                    () -> "the NAK rejects PSN " + Text.psn(fr.psn) + " yet its bitmap shows it recorded", null,
                    new FieldDiff("sacketh.bitmap bit " + i, "0 (the rejected packet is not recorded)", "1"));
            }
        }
        if (type == AethSyndrome.Type.ACK) {
            Judge.observe(c, flow, Check.ACK_FIELDS);
            if (Psn.add(fr.psn, 1) != base) {
                cx.judge.report(c, flow, Check.ACK_FIELDS, Basis.DEFINITE, fr,
                    () -> "the ACK has bth.psn " + Text.psn(fr.psn) + " and sacketh.base " + Text.psn(base)
                        + "; an ACK carries ePSN - 1 and ePSN", null,
                    new FieldDiff("bth.psn", Text.psn(Psn.add(base, -1)), Text.psn(fr.psn)));
            }
        }
    }

    private static void checkCnp(final Frame fr, final Context cx) {
        final Flow flow = fr.flow;
        final Connection c = flow.connection;
        final DecodedFrame f = fr.decoded;
        final ByteBuffer b = fr.buffer;
        final int bth = f.offset(HeaderKind.BTH);
        Judge.observe(c, flow, Check.CNP_FORMAT);
        final int flags = BigEndian.u8(b, bth + 1);
        final int byte4 = BigEndian.u8(b, bth + 4);
        final int byte8 = BigEndian.u8(b, bth + 8);
        String problem = null;
        if (fr.tver != 0) {
            problem = "bth.tver " + fr.tver + " (0)";
        } else if ((flags & 0xF0) != 0) {
            problem = "bth.se, bth.m or bth.padcnt not 0";
        } else if ((byte4 & 0xBF) != 0) {
            problem = "bth.fecn or bth.resv6a not 0";
        } else if ((byte4 & 0x40) == 0) {
            problem = "bth.becn 0 (1)";
        } else if (byte8 != 0) {
            problem = "bth.ackreq or bth.resv7 not 0";
        } else if (fr.psn != 0) {
            problem = "bth.psn " + fr.psn + " (0)";
        } else if (!fr.cut && f.dataRegionLength() != 0) {
            problem = f.dataRegionLength() + " bytes after the 16 reserved bytes";
        } else if (!fr.cut && f.has(HeaderKind.CNP_RESERVED) && !zero(b, f.offset(HeaderKind.CNP_RESERVED), 16)) {
            problem = "non-zero reserved bytes";
        }
        if (problem != null) {
            final String what = problem;
            cx.judge.report(c, flow, Check.CNP_FORMAT, Basis.DEFINITE, fr,
                () -> "the CNP to QP " + Flow.qpn(fr.dqpn) + " has " + what, null,
                new FieldDiff("cnp", "Table 2-11 values", what));
        }
    }

    private static boolean zero(final ByteBuffer b, final int from, final int length) {
        for (int i = 0; i < length; i++) {
            if (b.get(from + i) != 0) {
                return false;
            }
        }
        return true;
    }
}
