package org.metaroce.mrct.wire;

import java.nio.ByteBuffer;
import java.util.zip.CRC32;

/**
 * The test oracle for {@link Icrc}: its former implementation, which copies the headers into a scratch array, forces
 * the variant fields to ones there and runs the CRC over the copy and then the rest of the frame in place. Slower (a
 * CRC over bytes written just before it pays for store forwarding) but straightforward.
 *
 * <p>The RoCE invariant CRC (MetaRoCE v1 section WIRE, identical to RoCEv2): CRC-32 (IEEE 802.3, reflected, initial
 * value all ones, final complement, i.e. {@link CRC32}) over
 * <ol>
 *   <li>eight bytes of 0xFF standing in for the InfiniBand LRH;</li>
 *   <li>the IP header with the variant fields forced to ones: IPv4 TOS, TTL and header checksum; IPv6 (and the RoCEv1
 *       GRH) traffic class, flow label and hop limit;</li>
 *   <li>the UDP header with its checksum forced to ones (absent for RoCEv1);</li>
 *   <li>the BTH with byte 4 (FECN, BECN, Resv6a) forced to ones;</li>
 *   <li>the extension headers, payload and pad bytes as they are.</li>
 * </ol>
 * The 32-bit result is transmitted least significant byte first. An instance keeps a {@link CRC32} and a scratch
 * array so that computing never allocates; it is not thread-safe.
 */
final class MaskedCopyIcrc {
    private static final int LRH_STANDIN = 8;
    /** 8 (LRH) + 60 (largest IPv4 header) + 8 (UDP) + 12 (BTH). */
    private static final int SCRATCH = LRH_STANDIN + 60 + 8 + 12;

    private final CRC32 crc = new CRC32();
    /** The masked headers; bytes 0..7 stand in for the LRH and stay 0xFF (nothing else writes them). */
    private final byte[] scratch = new byte[SCRATCH];

    /** A computer with its own CRC state and scratch array. */
    MaskedCopyIcrc() {
        java.util.Arrays.fill(scratch, 0, LRH_STANDIN, (byte) 0xFF);
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
        final int n;
        if (udpOffset < 0 ? bthOffset == ipOffset + ipHeaderLength
            : udpOffset == ipOffset + ipHeaderLength && bthOffset == udpOffset + 8) {
            // IP, UDP and BTH back to back, as every decoded frame has them: one bulk copy instead of three.
            buffer.get(ipOffset, scratch, LRH_STANDIN, bthOffset + 12 - ipOffset);
            n = LRH_STANDIN + bthOffset + 12 - ipOffset;
        } else {
            n = copyApart(buffer, ipOffset, ipHeaderLength, udpOffset, bthOffset);
        }
        mask(ipv6, udpOffset >= 0, n);
        crc.reset();
        crc.update(scratch, 0, n);
        update(buffer, bthOffset + 12, icrcOffset - (bthOffset + 12));
        return (int) crc.getValue();
    }

    // compute's rarer or bulkier steps are methods of their own so that compute stays small enough to be inlined.

    /** Copies headers that are not back to back into the scratch array; returns the bytes it holds now. */
    private int copyApart(final ByteBuffer buffer, final int ipOffset, final int ipHeaderLength, final int udpOffset,
                          final int bthOffset) {
        buffer.get(ipOffset, scratch, LRH_STANDIN, ipHeaderLength);
        if (udpOffset >= 0) {
            buffer.get(udpOffset, scratch, LRH_STANDIN + ipHeaderLength, 8);
        }
        final int n = LRH_STANDIN + ipHeaderLength + (udpOffset >= 0 ? 8 : 0) + 12;
        buffer.get(bthOffset, scratch, n - 12, 12);
        return n;
    }

    /** Forces the variant fields of the copied headers (the BTH ends at {@code n}) to ones. */
    private void mask(final boolean ipv6, final boolean udp, final int n) {
        final int ipStart = LRH_STANDIN;
        if (ipv6) {
            scratch[ipStart] = (byte) (scratch[ipStart] | 0x0F);
            scratch[ipStart + 1] = (byte) 0xFF;
            scratch[ipStart + 2] = (byte) 0xFF;
            scratch[ipStart + 3] = (byte) 0xFF;
            scratch[ipStart + 7] = (byte) 0xFF;
        } else {
            scratch[ipStart + 1] = (byte) 0xFF;
            scratch[ipStart + 8] = (byte) 0xFF;
            scratch[ipStart + 10] = (byte) 0xFF;
            scratch[ipStart + 11] = (byte) 0xFF;
        }
        if (udp) {
            scratch[n - 12 - 2] = (byte) 0xFF;
            scratch[n - 12 - 1] = (byte) 0xFF;
        }
        scratch[n - 12 + 4] = (byte) 0xFF;
    }

    private void update(final ByteBuffer buffer, final int from, final int length) {
        if (length <= 0) {
            return;
        }
        if (buffer.hasArray()) {
            crc.update(buffer.array(), buffer.arrayOffset() + from, length);
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
