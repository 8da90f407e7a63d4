package org.metaroce.mrct.wire.header;

import org.metaroce.mrct.wire.BigEndian;
import org.metaroce.mrct.wire.Opcode;

/**
 * Base Transport Header, 12 bytes (RoCEv2; MetaRoCE v1 section WIRE). TVer 1 marks MetaRoCE v1 semantics.
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |    OpCode     |S|M|Pad| TVer  |            P_Key              |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |F|B|  Resv6a   |                  DestQP (24)                  |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |A|   Resv7     |                    PSN (24)                   |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 * S = solicited event, M = MigReq, Pad = PadCnt, F = FECN, B = BECN, A = AckReq. Byte 4 (F, B, Resv6a) is masked
 * out of the ICRC.
 */
public final class BthFlyweight extends HeaderFlyweight<BthFlyweight> {
    public static final int OPCODE_OFFSET = 0;
    public static final int FLAGS_OFFSET = OPCODE_OFFSET + 1;
    public static final int PKEY_OFFSET = FLAGS_OFFSET + 1;
    public static final int FECN_BECN_OFFSET = PKEY_OFFSET + 2;
    public static final int DEST_QP_OFFSET = FECN_BECN_OFFSET + 1;
    public static final int ACKREQ_OFFSET = DEST_QP_OFFSET + 3;
    public static final int PSN_OFFSET = ACKREQ_OFFSET + 1;
    public static final int LENGTH = PSN_OFFSET + 3;

    public int opcodeValue() {
        return BigEndian.u8(buffer, offset + OPCODE_OFFSET);
    }

    /** The opcode; never null, unknown values come back as {@code UNKNOWN(0xNN)}. */
    public Opcode opcode() {
        return Opcode.valueOf(opcodeValue());
    }

    public BthFlyweight opcode(final int opcode) {
        BigEndian.u8(buffer, offset + OPCODE_OFFSET, opcode);
        return this;
    }

    private int flags() {
        return BigEndian.u8(buffer, offset + FLAGS_OFFSET);
    }

    public boolean solicitedEvent() {
        return (flags() & 0x80) != 0;
    }

    public boolean migReq() {
        return (flags() & 0x40) != 0;
    }

    public int padCount() {
        return (flags() >>> 4) & 0x3;
    }

    public int tver() {
        return flags() & 0x0F;
    }

    /** Writes the second byte: SE, M, PadCnt and TVer. */
    public BthFlyweight flags(final boolean se, final boolean migReq, final int padCount, final int tver) {
        BigEndian.u8(buffer, offset + FLAGS_OFFSET,
            (se ? 0x80 : 0) | (migReq ? 0x40 : 0) | ((padCount & 0x3) << 4) | (tver & 0x0F));
        return this;
    }

    public int pkey() {
        return BigEndian.u16(buffer, offset + PKEY_OFFSET);
    }

    public BthFlyweight pkey(final int pkey) {
        BigEndian.u16(buffer, offset + PKEY_OFFSET, pkey);
        return this;
    }

    public boolean fecn() {
        return (BigEndian.u8(buffer, offset + FECN_BECN_OFFSET) & 0x80) != 0;
    }

    public boolean becn() {
        return (BigEndian.u8(buffer, offset + FECN_BECN_OFFSET) & 0x40) != 0;
    }

    public int resv6a() {
        return BigEndian.u8(buffer, offset + FECN_BECN_OFFSET) & 0x3F;
    }

    public BthFlyweight fecnBecn(final boolean fecn, final boolean becn) {
        BigEndian.u8(buffer, offset + FECN_BECN_OFFSET, (fecn ? 0x80 : 0) | (becn ? 0x40 : 0));
        return this;
    }

    public int destQp() {
        return BigEndian.u24(buffer, offset + DEST_QP_OFFSET);
    }

    public BthFlyweight destQp(final int qpn) {
        BigEndian.u24(buffer, offset + DEST_QP_OFFSET, qpn);
        return this;
    }

    public boolean ackReq() {
        return (BigEndian.u8(buffer, offset + ACKREQ_OFFSET) & 0x80) != 0;
    }

    public int resv7() {
        return BigEndian.u8(buffer, offset + ACKREQ_OFFSET) & 0x7F;
    }

    /** Writes AckReq with Resv7 zero. */
    public BthFlyweight ackReq(final boolean ackReq) {
        BigEndian.u8(buffer, offset + ACKREQ_OFFSET, ackReq ? 0x80 : 0);
        return this;
    }

    public int psn() {
        return BigEndian.u24(buffer, offset + PSN_OFFSET);
    }

    public BthFlyweight psn(final int psn) {
        BigEndian.u24(buffer, offset + PSN_OFFSET, psn);
        return this;
    }

    @Override
    public int headerLength() {
        return LENGTH;
    }
}
