package org.metaroce.mrct.wire;

/**
 * The arithmetic behind {@link Icrc}: how to get the CRC-32 of the masked byte string (eight 0xFF bytes, then the
 * headers with their variant fields forced to ones, then the rest) from a CRC-32 over the unmodified bytes in place.
 *
 * <p>Notation. The CRC-32 register {@code r} (reflected, as in zlib and {@link java.util.zip.CRC32}) takes a byte
 * {@code b} to {@code Z(r ^ b)}, where {@code Z(r) = (r >>> 8) ^ T[r & 0xFF]} is the step for a zero byte and
 * {@code T} the usual 256-entry table. {@code Z} is linear over GF(2) and invertible (the top bytes of the table
 * entries are a permutation of 0..255, so the step can be undone). Three facts follow:
 * <ol>
 *   <li>The register after a message {@code M} of {@code n} bytes is {@code Z^n(r0) ^ L(M)}, with {@code L} linear in
 *       the message. So changing the byte at position {@code p} by {@code d} (xor) changes the register at the end by
 *       {@code Z^(n-p)(d)}, and a different start register {@code s} instead of {@code r0} by {@code Z^n(s ^ r0)}.</li>
 *   <li>Both changes are {@code Z^n} of something that depends only on positions counted from the start of the
 *       message: {@code Z^(n-p)(d) = Z^n(Z^-p(d))}. So every correction (the masked fields and the 0xFF prefix) can be
 *       moved to the start of the covered bytes, whatever the payload length, with tables indexed by the position of
 *       the field in the headers only: no per-length table, no shift by the payload length.</li>
 *   <li>Four bytes {@code w} (little-endian) fed from the register {@code r} leave it at {@code Z^4(r ^ w)}, so any
 *       start register {@code s} can be reached from {@code CRC32}'s own start 0xFFFFFFFF by feeding the four bytes
 *       {@code w = 0xFFFFFFFF ^ Z^-4(s)}.</li>
 * </ol>
 * Hence the ICRC is the plain CRC-32 of {@code w} followed by the unmodified covered bytes, with
 * {@code w = START ^ xor of FORCE[p][b]} over the variant bytes {@code b} at positions {@code p} from the start of the
 * IP header: {@link #START} is {@code 0xFFFFFFFF ^ Z^-4(register after the eight 0xFF bytes)} and
 * {@code FORCE[p][b] = Z^-(p+4)(b ^ 0xFF)}, the change that forcing that byte to 0xFF makes, moved to the start.
 * Nothing is written: {@link Icrc} feeds {@code w} with {@link java.util.zip.CRC32#update(int)} and the frame's bytes
 * in place.
 */
final class IcrcCorrection {
    /** The last position from the IP header's start that holds a variant byte: the BTH's byte 4 after 60 + 8 bytes. */
    static final int MAX_POSITION = 60 + 8 + 4;
    /** The CRC-32 polynomial, bit-reflected. */
    private static final int POLYNOMIAL = 0xEDB88320;
    /** The CRC-32 table: {@code TABLE[b] = Z(b)}. */
    private static final int[] TABLE = new int[256];
    /** {@code TOP_INDEX[TABLE[b] >>> 24] = b}. */
    private static final int[] TOP_INDEX = new int[256];
    /** {@code FORCE[(p << 8) | b] = Z^-(p+4)(b ^ 0xFF)}, positions 0..{@link #MAX_POSITION}. */
    private static final int[] FORCE = new int[(MAX_POSITION + 1) << 8];
    /** The four bytes to feed first when no byte is forced: {@code 0xFFFFFFFF ^ Z^-4(register after 8 x 0xFF)}. */
    static final int START;

    static {
        java.util.Arrays.fill(TOP_INDEX, -1);
        for (int b = 0; b < 256; b++) {
            int r = b;
            for (int bit = 0; bit < 8; bit++) {
                r = (r >>> 1) ^ (POLYNOMIAL & -(r & 1));
            }
            TABLE[b] = r;
            if (TOP_INDEX[r >>> 24] >= 0) {
                throw new IllegalStateException("CRC-32 table top bytes are not a permutation");
            }
            TOP_INDEX[r >>> 24] = b;
        }
        for (int b = 0; b < 256; b++) {
            int v = b ^ 0xFF;
            for (int i = 0; i < 4; i++) {
                v = unstep(v);
            }
            for (int p = 0; p <= MAX_POSITION; p++) {
                FORCE[(p << 8) | b] = v;
                v = unstep(v);
            }
        }
        int register = 0xFFFFFFFF;
        for (int i = 0; i < 8; i++) {
            register = step(register ^ 0xFF);
        }
        START = 0xFFFFFFFF ^ unstep(unstep(unstep(unstep(register))));
    }

    private IcrcCorrection() {
    }

    /** {@code Z}: the register after a zero byte. */
    static int step(final int register) {
        return (register >>> 8) ^ TABLE[register & 0xFF];
    }

    /** {@code Z^-1}: the register before a zero byte that led to {@code register}. */
    static int unstep(final int register) {
        final int b = TOP_INDEX[register >>> 24];
        return ((register ^ TABLE[b]) << 8) | b;
    }

    /** The change to {@link #START}'s word when byte value {@code value} at {@code position} is forced to 0xFF. */
    static int force(final int position, final int value) {
        return FORCE[(position << 8) | (value & 0xFF)];
    }

    /**
     * The change when only the low four bits of the byte at {@code position} are forced to ones (byte 0 of IPv6:
     * version kept, traffic class's high half forced): a byte forced to 0xFF from {@code 0xF0 | low bits} changes by
     * the same {@code ~value & 0x0F}.
     */
    static int forceLowNibble(final int position, final int value) {
        return FORCE[(position << 8) | 0xF0 | (value & 0x0F)];
    }
}
