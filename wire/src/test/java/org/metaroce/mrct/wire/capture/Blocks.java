package org.metaroce.mrct.wire.capture;

import java.util.function.UnaryOperator;

/** Hand-built pcapng blocks (see draft-ietf-opsawg-pcapng), for tests that must not depend on the writer. */
final class Blocks {
    static final int SHB = 0x0A0D0D0A;
    static final int IDB = 1;
    static final int PB = 2;
    static final int SPB = 3;
    static final int NRB = 4;
    static final int ISB = 5;
    static final int EPB = 6;
    static final int CUSTOM = 0x0000_0BAD;

    static final int OPT_COMMENT = 1;
    static final int IF_NAME = 2;
    static final int IF_TSRESOL = 9;
    static final int IF_FCSLEN = 13;
    static final int IF_TSOFFSET = 14;
    static final int EPB_FLAGS = 2;

    static final byte[] NO_OPTIONS = {};

    private Blocks() {
    }

    /** Options area: the given options (built with {@link Bytes#option}) followed by opt_endofopt. */
    static byte[] options(final boolean bigEndian, final UnaryOperator<Bytes> options) {
        return options.apply(start(bigEndian)).endOfOptions().toArray();
    }

    /** A block of any type around {@code body}, which must be a multiple of 4 bytes. */
    static byte[] block(final boolean bigEndian, final int type, final byte[] body) {
        final int length = 12 + body.length;
        return start(bigEndian).u32(type).u32(length).bytes(body).u32(length).toArray();
    }

    static byte[] shb(final boolean bigEndian, final byte[] options) {
        return block(bigEndian, SHB, start(bigEndian).u32(0x1A2B3C4D).u16(1).u16(0).u64(-1).bytes(options).toArray());
    }

    static byte[] idb(final boolean bigEndian, final int linkType, final int snapLength, final byte[] options) {
        return block(bigEndian, IDB, start(bigEndian).u16(linkType).u16(0).u32(snapLength).bytes(options).toArray());
    }

    static byte[] epb(final boolean bigEndian, final int interfaceId, final long units, final byte[] data,
            final long originalLength, final byte[] options) {
        return block(bigEndian, EPB, start(bigEndian).u32(interfaceId).u32(units >>> 32).u32(units)
                .u32(data.length).u32(originalLength).bytes(data).pad4().bytes(options).toArray());
    }

    static byte[] pb(final boolean bigEndian, final int interfaceId, final long units, final byte[] data,
            final long originalLength, final byte[] options) {
        return block(bigEndian, PB, start(bigEndian).u16(interfaceId).u16(0).u32(units >>> 32).u32(units)
                .u32(data.length).u32(originalLength).bytes(data).pad4().bytes(options).toArray());
    }

    static byte[] spb(final boolean bigEndian, final long originalLength, final byte[] data) {
        return block(bigEndian, SPB, start(bigEndian).u32(originalLength).bytes(data).pad4().toArray());
    }

    /** Concatenates blocks into a file. */
    static byte[] file(final byte[]... blocks) {
        final Bytes file = Bytes.bigEndian();
        for (final byte[] block : blocks) {
            file.bytes(block);
        }
        return file.toArray();
    }

    private static Bytes start(final boolean bigEndian) {
        return bigEndian ? Bytes.bigEndian() : Bytes.littleEndian();
    }
}
