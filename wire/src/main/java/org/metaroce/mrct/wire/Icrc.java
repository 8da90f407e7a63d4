package org.metaroce.mrct.wire;

import java.nio.ByteBuffer;
import java.util.zip.CRC32;

/**
 * The RoCE invariant CRC (MetaRoCE v1 section WIRE, identical to RoCEv2): CRC-32 (IEEE 802.3, reflected, initial
 * value all ones, final complement, i.e. {@link CRC32}) over
 * <ol>
 *   <li>eight bytes of 0xFF standing in for the InfiniBand LRH;</li>
 *   <li>the IP header with the variant fields forced to ones: IPv4 TOS, TTL and header checksum; IPv6 (and the RoCEv1
 *       GRH) traffic class, flow label and hop limit;</li>
 *   <li>the UDP header with its checksum forced to ones (absent for RoCEv1);</li>
 *   <li>the BTH with byte 4 (FECN, BECN, Resv6a) forced to ones;</li>
 *   <li>the extension headers, payload and pad bytes as they are.</li>
 * </ol>
 * The 32-bit result is transmitted least significant byte first.
 *
 * <p>Nothing is copied or written: the CRC runs over the frame's own bytes from {@link CRC32}'s own start, and the
 * result is corrected for the 0xFF prefix and the forced fields by one register change computed from the variant
 * fields' values and carried over the covered length (CRC linearity, see {@link IcrcCorrection}); the correction does
 * not wait for the CRC nor the CRC for it. A CRC over bytes written just before it runs markedly slower (store
 * forwarding), which is why the masked copy of the headers that this replaces cost about as much as the CRC over the
 * whole frame. An instance keeps a {@link CRC32}, so computing never allocates (but for the first frame of a length,
 * see {@link IcrcCorrection}); it is not thread-safe.
 */
public final class Icrc {
    /** Entries of {@link #recentLength} and {@link #recentShift}: a power of two. */
    private static final int RECENT = 8;
    private final CRC32 crc = new CRC32();
    /**
     * The shift tables of the covered lengths seen last, direct-mapped by length ({@link #slot}): a stream's data
     * packets and its acknowledgements alternate two or three lengths, which a single last length missed every other
     * frame (and each miss went through {@link IcrcCorrection#table}'s acquiring read). -1: no table in the entry.
     */
    private final int[] recentLength = new int[RECENT];
    private final int[][] recentShift = new int[RECENT][];

    /** A computer with its own CRC state. */
    public Icrc() {
        java.util.Arrays.fill(recentLength, -1);
    }

    /** The entry of {@link #recentLength} for a covered length. */
    private static int slot(final int covered) {
        return (covered ^ covered >>> 3) & (RECENT - 1);
    }

    /**
     * Computes the ICRC of a packet laid out in {@code buffer}.
     *
     * @param ipOffset absolute index of the IPv4 or IPv6 header (or the RoCEv1 GRH)
     * @param ipHeaderLength length of that header in bytes (20..60 for IPv4, 40 for IPv6 and GRH)
     * @param ipv6 true for IPv6 and GRH layouts
     * @param udpOffset absolute index of the UDP header, or -1 for RoCEv1 (no UDP)
     * @param bthOffset absolute index of the BTH
     * @param icrcOffset absolute index of the ICRC (the end of the covered bytes)
     * @return the CRC-32 value; compare it with the little-endian 32-bit value on the wire
     */
    public int compute(final ByteBuffer buffer, final int ipOffset, final int ipHeaderLength, final boolean ipv6,
                       final int udpOffset, final int bthOffset, final int icrcOffset) {
        final boolean heap = buffer.hasArray();
        return compute(heap ? buffer.array() : null, heap ? buffer.arrayOffset() : 0, buffer, ipOffset,
            ipHeaderLength, ipv6, udpOffset, bthOffset, icrcOffset);
    }

    /**
     * {@link #compute(ByteBuffer, int, int, boolean, int, int, int)} reading {@code buffer}'s backing array
     * {@code array} directly (its index 0 at {@code base}, i.e. the array offset) when it is not null, as
     * {@link DecodedFrame} does, which has them at hand.
     */
    int compute(final byte[] array, final int base, final ByteBuffer buffer, final int ipOffset,
                final int ipHeaderLength, final boolean ipv6, final int udpOffset, final int bthOffset,
                final int icrcOffset) {
        final boolean udp = udpOffset >= 0;
        final int bthPosition = ipHeaderLength + (udp ? 8 : 0);
        // the BTH is always covered whole, even when the ICRC index falls inside it (see updateApart)
        final int covered = bthPosition + Math.max(12, icrcOffset - bthOffset);
        final int change = array != null
            ? change(array, base, ipOffset, ipHeaderLength, ipv6, udpOffset, bthOffset)
            : change(buffer, ipOffset, ipHeaderLength, ipv6, udpOffset, bthOffset);
        // independent of the CRC below: the processor works it out while the CRC runs
        final int slot = slot(covered);
        final int correction = recentLength[slot] == covered
            ? IcrcCorrection.apply(recentShift[slot], change) : shift(slot, covered, change);
        crc.reset();
        if (bthOffset == ipOffset + bthPosition && (!udp || udpOffset == ipOffset + ipHeaderLength)
            && icrcOffset >= bthOffset + 12) {
            // IP, UDP and BTH back to back, as every decoded frame has them: one CRC over all covered bytes.
            if (array != null) {
                crc.update(array, base + ipOffset, covered);
            } else {
                updateDirect(buffer, ipOffset, covered);
            }
        } else {
            updateApart(array, base, buffer, ipOffset, ipHeaderLength, udpOffset, bthOffset, icrcOffset);
        }
        return (int) crc.getValue() ^ correction;
    }

    /** {@link IcrcCorrection#shift}, keeping the length's table in its entry for the next frames when it has one. */
    private int shift(final int slot, final int covered, final int change) {
        final int[] table = IcrcCorrection.table(covered);
        if (table == null) {
            return IcrcCorrection.shift(covered, change);
        }
        recentLength[slot] = covered;
        recentShift[slot] = table;
        return IcrcCorrection.apply(table, change);
    }

    // compute's rarer or bulkier steps are methods of their own so that compute stays small enough to be inlined.

    /**
     * The register change at the start of the covered bytes, from the variant fields of a heap buffer's backing array
     * ({@code base} is the buffer's array offset): IPv4 type of service (1), TTL (8) and header checksum (10, 11);
     * IPv6 and GRH traffic class and flow label (the low half of byte 0, bytes 1 to 3) and hop limit (7); the UDP
     * checksum; the BTH's byte 4. Positions are counted in the covered bytes from the IP header's first byte.
     */
    private static int change(final byte[] a, final int base, final int ipOffset, final int ipHeaderLength,
                               final boolean ipv6, final int udpOffset, final int bthOffset) {
        final int ip = base + ipOffset;
        int change = IcrcCorrection.PREFIX;
        if (ipv6) {
            change ^= IcrcCorrection.forceLowNibble(0, a[ip]) ^ IcrcCorrection.force(1, a[ip + 1])
                ^ IcrcCorrection.force(2, a[ip + 2]) ^ IcrcCorrection.force(3, a[ip + 3])
                ^ IcrcCorrection.force(7, a[ip + 7]);
        } else {
            change ^= IcrcCorrection.force(1, a[ip + 1]) ^ IcrcCorrection.force(8, a[ip + 8])
                ^ IcrcCorrection.force(10, a[ip + 10]) ^ IcrcCorrection.force(11, a[ip + 11]);
        }
        int bthPosition = ipHeaderLength;
        if (udpOffset >= 0) {
            change ^= IcrcCorrection.force(ipHeaderLength + 6, a[base + udpOffset + 6])
                ^ IcrcCorrection.force(ipHeaderLength + 7, a[base + udpOffset + 7]);
            bthPosition += 8;
        }
        return change ^ IcrcCorrection.force(bthPosition + 4, a[base + bthOffset + 4]);
    }

    /**
     * {@link #change(byte[], int, int, int, boolean, int, int)} for a direct or read-only buffer (the capture reader's),
     * whose every access is checked: neighbouring variant bytes are read together (IPv6 bytes 0 to 3, IPv4 bytes 8 to
     * 11, the UDP checksum), four reads at most instead of seven.
     */
    private static int change(final ByteBuffer b, final int ip, final int ipHeaderLength, final boolean ipv6,
                               final int udpOffset, final int bthOffset) {
        int change = IcrcCorrection.PREFIX;
        if (ipv6) {
            final int head = BigEndian.i32(b, ip);
            change ^= IcrcCorrection.forceLowNibble(0, head >>> 24) ^ IcrcCorrection.force(1, head >>> 16)
                ^ IcrcCorrection.force(2, head >>> 8) ^ IcrcCorrection.force(3, head)
                ^ IcrcCorrection.force(7, b.get(ip + 7));
        } else {
            final int ttlToChecksum = BigEndian.i32(b, ip + 8);
            change ^= IcrcCorrection.force(1, b.get(ip + 1)) ^ IcrcCorrection.force(8, ttlToChecksum >>> 24)
                ^ IcrcCorrection.force(10, ttlToChecksum >>> 8) ^ IcrcCorrection.force(11, ttlToChecksum);
        }
        int bthPosition = ipHeaderLength;
        if (udpOffset >= 0) {
            final int checksum = BigEndian.u16(b, udpOffset + 6);
            change ^= IcrcCorrection.force(ipHeaderLength + 6, checksum >>> 8)
                ^ IcrcCorrection.force(ipHeaderLength + 7, checksum);
            bthPosition += 8;
        }
        return change ^ IcrcCorrection.force(bthPosition + 4, b.get(bthOffset + 4));
    }

    /** Headers that are not back to back: the CRC over each in turn, then over the rest up to the ICRC. */
    private void updateApart(final byte[] array, final int base, final ByteBuffer buffer, final int ipOffset,
                             final int ipHeaderLength, final int udpOffset, final int bthOffset,
                             final int icrcOffset) {
        update(array, base, buffer, ipOffset, ipHeaderLength);
        if (udpOffset >= 0) {
            update(array, base, buffer, udpOffset, 8);
        }
        update(array, base, buffer, bthOffset, 12);
        update(array, base, buffer, bthOffset + 12, icrcOffset - (bthOffset + 12));
    }

    private void update(final byte[] array, final int base, final ByteBuffer buffer, final int from,
                        final int length) {
        if (length <= 0) {
            return;
        }
        if (array != null) {
            crc.update(array, base + from, length);
            return;
        }
        updateDirect(buffer, from, length);
    }

    private void updateDirect(final ByteBuffer buffer, final int from, final int length) {
        // Direct or read-only buffer: CRC32 reads position..limit; narrow them for the call and restore them afterwards.
        final int position = buffer.position();
        final int limit = buffer.limit();
        try {
            buffer.limit(from + length);
            buffer.position(from);
            crc.update(buffer);
        } finally {
            buffer.limit(limit);
            buffer.position(position);
        }
    }
}
