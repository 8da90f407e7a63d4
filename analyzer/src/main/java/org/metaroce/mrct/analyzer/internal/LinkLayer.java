package org.metaroce.mrct.analyzer.internal;

import java.nio.ByteBuffer;

/**
 * Frames of captures that are not Ethernet but carry Ethernet's payload with an EtherType: Linux "cooked" captures
 * ({@code tcpdump -i any}), link types 113 (SLL) and 276 (SLL2). They are rewritten into an Ethernet frame (zero
 * MACs, the EtherType, the same payload) in a scratch buffer, so that the decoder and every check see the frames
 * they expect; the frames copied once more cost a copy each, which only these captures pay.
 */
final class LinkLayer {
    /** LINKTYPE_LINUX_SLL. */
    static final int SLL = 113;
    /** LINKTYPE_LINUX_SLL2. */
    static final int SLL2 = 276;

    private LinkLayer() {
    }

    /** True for the link types {@link #toEthernet} rewrites. */
    static boolean supported(final int linkType) {
        return linkType == SLL || linkType == SLL2;
    }

    /**
     * Writes the Ethernet form of the cooked frame at {@code buffer[offset, offset + length)} into {@code scratch}
     * (from index 0) and returns its length, or -1 when the frame is too short for its cooked header.
     */
    static int toEthernet(final int linkType, final ByteBuffer buffer, final int offset, final int length,
                          final ByteBuffer scratch) {
        final int header = linkType == SLL ? 16 : 20;
        final int typeAt = linkType == SLL ? 14 : 0;
        if (length < header || scratch.capacity() < length - header + 14) {
            return -1;
        }
        for (int i = 0; i < 12; i++) {
            scratch.put(i, (byte) 0);
        }
        scratch.put(12, buffer.get(offset + typeAt));
        scratch.put(13, buffer.get(offset + typeAt + 1));
        scratch.put(14, buffer, offset + header, length - header);
        return length - header + 14;
    }
}
