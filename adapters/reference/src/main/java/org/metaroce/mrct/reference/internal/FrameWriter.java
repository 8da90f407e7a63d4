package org.metaroce.mrct.reference.internal;

import java.nio.ByteBuffer;
import org.metaroce.mrct.wire.Encapsulation;
import org.metaroce.mrct.wire.HeaderKind;
import org.metaroce.mrct.wire.HeaderLayout;
import org.metaroce.mrct.wire.Icrc;
import org.metaroce.mrct.wire.Opcode;
import org.metaroce.mrct.wire.header.AethFlyweight;
import org.metaroce.mrct.wire.header.AtomicAckEthFlyweight;
import org.metaroce.mrct.wire.header.BthFlyweight;
import org.metaroce.mrct.wire.header.PlethFlyweight;
import org.metaroce.mrct.wire.header.SackethFlyweight;

/**
 * Encodes the frames the reference NIC sends, straight into a new array with the flyweights (no builder on the hot
 * path): lengths from the header layout, pad zeroed, ICRC sealed.
 */
final class FrameWriter {
    /** IP ECN codepoints used on transmit. */
    static final int NOT_ECT = 0;
    static final int ECT0 = 2;

    private final Icrc icrc = new Icrc();
    private final BthFlyweight bth = new BthFlyweight();
    private final PlethFlyweight pleth = new PlethFlyweight();
    private final AethFlyweight aeth = new AethFlyweight();
    private final SackethFlyweight sacketh = new SackethFlyweight();
    private final AtomicAckEthFlyweight atomicAck = new AtomicAckEthFlyweight();

    /**
     * The headers before the BTH of the last frame written (Ethernet, IP, UDP): {@link Encapsulation#write} is a pure
     * function of the (immutable) encapsulation, the transport length, the ECN and the UDP source port, and a burst's
     * frames share all four, so the next such frame copies them instead of writing each field and summing the IPv4
     * header again.
     */
    private Encapsulation lastEncapsulation;
    private int lastTransportLength = -1;
    private int lastEcn = -1;
    private int lastSport = -1;
    private byte[] lastHeaders = new byte[0];

    /** A frame being written: its buffer and where its parts start. */
    static final class Draft {
        final byte[] bytes;
        final ByteBuffer buffer;
        final int bth;
        final int transportLength;
        final Encapsulation encapsulation;
        int cursor;

        Draft(final Encapsulation encapsulation, final int transportLength, final int bth) {
            this.encapsulation = encapsulation;
            this.transportLength = transportLength;
            this.bytes = new byte[encapsulation.headerLength() + transportLength];
            this.buffer = ByteBuffer.wrap(bytes);
            this.bth = bth;
            this.cursor = bth + BthFlyweight.LENGTH;
        }
    }

    /** A new frame with its headers before the BTH written (or copied from the last frame's, when the same). */
    private Draft draft(final Encapsulation e, final int transportLength, final int ecn, final int sport) {
        final Draft d = new Draft(e, transportLength, e.headerLength());
        if (e == lastEncapsulation && transportLength == lastTransportLength && ecn == lastEcn && sport == lastSport) {
            System.arraycopy(lastHeaders, 0, d.bytes, 0, d.bth);
            return d;
        }
        if (e.write(d.buffer, 0, transportLength, ecn, sport) != d.bth) {
            throw new IllegalStateException("the encapsulation's headers are not its header length");
        }
        lastEncapsulation = e;
        lastTransportLength = transportLength;
        lastEcn = ecn;
        lastSport = sport;
        lastHeaders = java.util.Arrays.copyOf(d.bytes, d.bth);
        return d;
    }

    /** Starts a frame of {@code opcode} with a payload of {@code payloadLength} bytes; headers follow the layout. */
    Draft begin(final Encapsulation e, final Opcode opcode, final int tver, final int payloadLength, final int ecn,
                final int sport, final int destQp, final int pkey, final int psn, final boolean ackReq) {
        final int pad = (-payloadLength) & 3;
        final int transport = 12 + HeaderLayout.extensionLength(opcode, tver) + payloadLength + pad + 4;
        final Draft d = draft(e, transport, ecn, sport);
        bth.wrap(d.buffer, d.bth).opcode(opcode.code()).flags(false, false, pad, tver).pkey(pkey)
            .fecnBecn(false, opcode == Opcode.CNP).destQp(destQp).ackReq(ackReq).psn(psn);
        return d;
    }

    void pleth(final Draft d, final int msn, final boolean first, final boolean last, final long offset,
               final int rsn) {
        pleth.wrap(d.buffer, d.cursor).msn(msn).flags((first ? PlethFlyweight.FLAG_FIRST : 0)
            | (last ? PlethFlyweight.FLAG_LAST : 0)).messageOffset(offset).rsn(rsn).reserved(0);
        d.cursor += HeaderKind.PLETH.length();
    }

    void aeth(final Draft d, final int syndrome, final int msn) {
        aeth.wrap(d.buffer, d.cursor).syndrome(syndrome).msn(msn);
        d.cursor += HeaderKind.AETH.length();
    }

    void sacketh(final Draft d, final int base, final long bitmap) {
        sacketh.wrap(d.buffer, d.cursor).reserved(0).basePsn(base).bitmap(bitmap);
        d.cursor += HeaderKind.SACKETH.length();
    }

    void atomicAck(final Draft d, final long original) {
        atomicAck.wrap(d.buffer, d.cursor).original(original);
        d.cursor += HeaderKind.ATOMIC_ACK_ETH.length();
    }

    /** Skips {@code bytes} already zero (the CNP's reserved bytes, or headers the caller fills itself). */
    void skip(final Draft d, final int bytes) {
        d.cursor += bytes;
    }

    void payload(final Draft d, final byte[] source, final int offset, final int length) {
        System.arraycopy(source, offset, d.bytes, d.cursor, length);
        d.cursor += length;
    }

    /** Seals the ICRC (pad bytes are already zero) and returns the frame. */
    byte[] finish(final Draft d) {
        d.encapsulation.sealIcrc(icrc, d.buffer, 0, d.transportLength);
        return d.bytes;
    }
}
