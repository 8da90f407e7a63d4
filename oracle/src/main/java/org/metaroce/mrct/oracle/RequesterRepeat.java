package org.metaroce.mrct.oracle;

import java.nio.ByteBuffer;
import org.metaroce.mrct.wire.BigEndian;
import org.metaroce.mrct.wire.DecodedFrame;
import org.metaroce.mrct.wire.FrameDecoder;
import org.metaroce.mrct.wire.HeaderKind;
import org.metaroce.mrct.wire.OpKind;
import org.metaroce.mrct.wire.Opcode;
import org.metaroce.mrct.wire.header.Ipv4Flyweight;

/**
 * MR-RTX-006: a retransmission repeats its original transmission but for the fields section 13.7 lets it change.
 * Judged without keeping the original: the ICRC covers every byte a retransmission must repeat and, of the fields it
 * may change, all but three (the IPv4 identification, the UDP source port and AckReq; ECN, the flow label and the
 * IPv4 checksum are masked). A first transmission leaves its ICRC and those three fields ({@link #variant}); a
 * retransmission is copied, given the original's three fields back and its ICRC computed again: equal to the
 * original's exactly when everything else is the same, payload included.
 *
 * <p>Not compared (section 13.7's exceptions, judged by {@link ReadRerequest}): a READ REQUEST on a PSN after the
 * first of its READ's span, the re-request of MR-RTX-016 or, on a TVer 0 QP, the request for the rest of a read of
 * MR-LEG-010. Both ICRCs must be right for the comparison to mean anything: the caller keeps the original's only when
 * it was ({@link #comparable}). One instance per thread (it keeps a scratch buffer).
 */
public final class RequesterRepeat {
    /** The rule. */
    public static final String RULE = "MR-RTX-006";
    /** The rule for a READ REQUEST resent at its READ's first PSN: the original request again. */
    public static final String READ_RULE = "MR-RTX-017";
    /** The rule for an atomic request resent: the same request at the same PSN with the same AtomicETH. */
    public static final String ATOMIC_RULE = "MR-RTX-018";
    /** The fields a retransmission may change, as a finding names them. */
    public static final String MAY_CHANGE = "udp.sport, ip.id, ip.ecn, ip6.flow_label, bth.ackreq";

    private final FrameDecoder decoder = new FrameDecoder();
    private ByteBuffer scratch = ByteBuffer.allocate(1 << 12);

    /** True when {@code frame}'s ICRC is right, so that it may be the original of a comparison or compared. */
    public static boolean comparable(final DecodedFrame frame) {
        return frame.isRoce() && frame.icrcValid();
    }

    /** The fields of {@code frame} that a retransmission may change and the ICRC covers, packed for the caller. */
    public static long variant(final DecodedFrame frame) {
        final int id = frame.has(HeaderKind.IPV4) ? BigEndian.u16(frame.buffer(), frame.offset(HeaderKind.IPV4)
            + Ipv4Flyweight.IDENTIFICATION_OFFSET) : 0;
        return variant(id, frame.udp().sourcePort(), frame.bth().ackReq());
    }

    /**
     * {@link #variant(DecodedFrame)} from the fields a caller has already read: the IPv4 identification (0 for
     * IPv6), udp.sport and bth.ackreq.
     */
    public static long variant(final int ipv4Id, final int sourcePort, final boolean ackReq) {
        return (long) ipv4Id << 16 | sourcePort | (ackReq ? 1L << 32 : 0);
    }

    /**
     * True when a request sent again at PSN {@code psn} is compared with its original: all but a READ REQUEST after
     * the first PSN {@code readFirstPsn} of its READ's span (a re-request, or TVer 0's request for the rest).
     */
    public static boolean compared(final Opcode opcode, final int psn, final int readFirstPsn) {
        return opcode.kind() != OpKind.RDMA_READ_REQUEST || psn == readFirstPsn;
    }

    /**
     * The rule a retransmission of a request with {@code originalOpcode} on a QP of {@code tver} breaks when it
     * differs: MR-RTX-017 for the original READ REQUEST resent (TVer 1 only: Table 16-2 takes it from TVer 0, where
     * MR-RTX-006 governs), MR-RTX-018 for an atomic request, MR-RTX-006 for every other.
     */
    public static String rule(final Opcode originalOpcode, final int tver) {
        final OpKind kind = originalOpcode.kind();
        return kind == OpKind.RDMA_READ_REQUEST && tver == 1 ? READ_RULE : kind.isAtomic() ? ATOMIC_RULE : RULE;
    }

    /**
     * True when {@code retransmission}, with the original's variant fields put back, has the original's ICRC. Both
     * must be {@link #comparable}.
     */
    public boolean repeats(final DecodedFrame retransmission, final int originalIcrc, final long originalVariant) {
        final DecodedFrame d = retransmission;
        final int length = d.frameLength();
        if (scratch.capacity() < length) {
            scratch = ByteBuffer.allocate(Integer.highestOneBit(length) << 1);
        }
        final int base = d.frameOffset();
        scratch.put(0, d.buffer(), base, length);
        if (d.has(HeaderKind.IPV4)) {
            BigEndian.u16(scratch, d.offset(HeaderKind.IPV4) - base + Ipv4Flyweight.IDENTIFICATION_OFFSET,
                (int) (originalVariant >>> 16) & 0xFFFF);
        }
        BigEndian.u16(scratch, d.offset(HeaderKind.UDP) - base, (int) originalVariant & 0xFFFF);
        final int ackAt = d.offset(HeaderKind.BTH) - base + 8;
        final int ack = BigEndian.u8(scratch, ackAt);
        BigEndian.u8(scratch, ackAt, (originalVariant & 1L << 32) != 0 ? ack | 0x80 : ack & 0x7F);
        final DecodedFrame copy = decoder.decode(scratch, 0, length);
        return copy.isRoce() && copy.computeIcrc() == originalIcrc;
    }

    /**
     * The finding on {@code retransmission} against an original with opcode {@code originalOpcode}, ICRC and variant
     * (named {@code original} in the finding, as the caller numbers it), or null when it repeats it. Its rule is
     * {@link #rule}'s for the original.
     */
    public Finding check(final DecodedFrame retransmission, final Opcode originalOpcode, final int originalIcrc,
                         final long originalVariant, final String original, final long frame, final Basis basis) {
        final boolean sameOpcode = retransmission.opcode() == originalOpcode;
        if (sameOpcode && repeats(retransmission, originalIcrc, originalVariant)) {
            return null;
        }
        return new Finding(rule(originalOpcode, retransmission.tver()), "packet", "as " + original + " ("
            + originalOpcode.name() + ") but for " + MAY_CHANGE, retransmission.opcode().name()
            + (sameOpcode ? " with other headers or payload" : ""), frame, basis);
    }
}
