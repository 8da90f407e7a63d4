package org.metaroce.mrct.analyzer.internal;

import java.nio.ByteBuffer;
import org.metaroce.mrct.wire.AethSyndrome;
import org.metaroce.mrct.wire.BigEndian;
import org.metaroce.mrct.wire.DecodedFrame;
import org.metaroce.mrct.wire.HeaderKind;
import org.metaroce.mrct.wire.OpKind;
import org.metaroce.mrct.wire.Opcode;
import org.metaroce.mrct.wire.Position;
import org.metaroce.mrct.wire.header.PlethFlyweight;

/**
 * The frame being analysed: its decoded view and the fields every check reads, extracted once. One instance is
 * reused for every frame of a capture, so nothing here may be kept past the frame; {@link FrameSnapshot} copies what a
 * finding needs.
 */
final class Frame {
    DecodedFrame decoded;
    ByteBuffer buffer;
    /** 1-based record number in its file. */
    long number;
    /** Capture timestamp, nanoseconds since the epoch. */
    long tsNs;
    /** Length of the frame on the wire (the record's original length). */
    int wireLength;
    /** Bytes of the frame in the capture. */
    int captured;
    /** True when the capture cut the frame (snap length): headers are read, the payload and ICRC are not known. */
    boolean cut;
    /** Evidence mode: the frame was sent by the device under test. Always true outside evidence mode. */
    boolean judged;

    Flow flow;
    Opcode opcode;
    OpKind kind;
    /**
     * A TVer 0 FLUSH or ATOMIC WRITE of plain RoCEv2 traffic (InfiniBand's memory placement extensions, Appendix F):
     * followed as a one-PSN read-like request ({@link #kind} RDMA_READ_REQUEST, {@link #readLength()} 0), since the
     * responder answers it with one RDMA READ RESPONSE ONLY without payload.
     */
    boolean memoryPlacement;
    Position position;
    int tver;
    int psn;
    int dqpn;
    boolean ackReq;
    int sourcePort;
    int ecn;
    int pkey;
    int payloadLength;
    boolean icrcOk;
    /** The IPv4 header checksum is right (always true for IPv6). */
    boolean ipChecksumOk;
    /** A receiver would accept the frame as far as its own bytes tell (ICRC, checksums, layout, PLETH flags). */
    boolean receivable;
    /** Identifies the frame's exact bytes cheaply (ICRC, IP ID, length, port, PSN), for spotting captured copies. */
    long signature;
    /** The ICRC as carried (0 for a frame the capture cut), read once by the session's fill. */
    int icrcOnWire;
    /** The IPv4 identification (0 for IPv6), read once by the session's fill. */
    int ipv4Id;

    /** True for request packets (SEND, WRITE, READ REQUEST, atomics). */
    boolean isRequest() {
        return kind.isRequest();
    }

    /** True for the packets of Table 11-4: ACKNOWLEDGE, ATOMIC ACKNOWLEDGE, READ RESPONSE. */
    boolean isResponse() {
        return kind == OpKind.ACKNOWLEDGE || kind == OpKind.ATOMIC_ACKNOWLEDGE || kind == OpKind.RDMA_READ_RESPONSE;
    }

    /** True for data packets: requests and read responses. */
    boolean isData() {
        return kind.isRequest() || kind == OpKind.RDMA_READ_RESPONSE;
    }

    boolean isCnp() {
        return opcode == Opcode.CNP;
    }

    boolean hasPleth() {
        return pleth;
    }

    /** The PLETH's fields, read once by {@link #readPleth()} (valid when {@link #hasPleth()}). */
    private int plethMsn;
    private int plethFlags;
    private long plethOffset;
    private int plethRsn;
    private boolean pleth;

    /** Reads the PLETH's fields, if the frame has one. */
    void readPleth() {
        pleth = decoded.has(HeaderKind.PLETH);
        if (pleth) {
            final int at = decoded.offset(HeaderKind.PLETH);
            final int word = BigEndian.i32(buffer, at);
            plethMsn = word >>> 8;
            plethFlags = word & 0xFF;
            plethOffset = BigEndian.u32(buffer, at + PlethFlyweight.MESSAGE_OFFSET_OFFSET);
            plethRsn = BigEndian.i32(buffer, at + PlethFlyweight.RSN_OFFSET) >>> 8;
        }
    }

    int plethMsn() {
        return plethMsn;
    }

    boolean plethFirst() {
        return (plethFlags & 0x80) != 0;
    }

    boolean plethLast() {
        return (plethFlags & 0x40) != 0;
    }

    long plethOffset() {
        return plethOffset;
    }

    int plethRsn() {
        return plethRsn;
    }

    /** The AETH's syndrome byte (-1 without an AETH) and MSN, read once by {@link #readAeth()}. */
    private int syndrome;
    private int aethMsn;

    /** Reads the AETH's fields, if the frame has one. */
    void readAeth() {
        if (decoded.has(HeaderKind.AETH)) {
            final int word = BigEndian.i32(buffer, decoded.offset(HeaderKind.AETH));
            syndrome = word >>> 24;
            aethMsn = word & 0xFF_FFFF;
        } else {
            syndrome = -1;
            aethMsn = 0;
        }
    }

    /** The AETH syndrome byte, or -1 without an AETH. */
    int syndrome() {
        return syndrome;
    }

    AethSyndrome.Type syndromeType() {
        return AethSyndrome.valueOf(syndrome()).type();
    }

    /** The AETH's MSN (the frame must have an AETH). */
    int aethMsn() {
        return aethMsn;
    }

    /** For a READ REQUEST: the read's length (reth.dmalen). */
    long readLength() {
        return memoryPlacement ? 0 : decoded.reth().dmaLength();
    }

    /** True when the opcode ends a message on the requester's side: LAST, ONLY, READ REQUEST, atomics. */
    boolean endsMessage() {
        return position.isLast() || kind == OpKind.RDMA_READ_REQUEST || kind.isAtomic();
    }

    /** True when the opcode starts a message: FIRST, ONLY, READ REQUEST, atomics. */
    boolean startsMessage() {
        return position.isFirst() || kind == OpKind.RDMA_READ_REQUEST || kind.isAtomic();
    }

    /** {@code frame N} for messages. */
    String label() {
        return "frame " + number;
    }
}
