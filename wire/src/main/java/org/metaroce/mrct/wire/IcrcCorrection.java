package org.metaroce.mrct.wire;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicInteger;

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
 *       message: {@code Z^(n-p)(d) = Z^n(Z^-p(d))}. So every correction (the masked fields and the 0xFF prefix) adds
 *       up to one register change {@code c} at the start of the covered bytes, with tables indexed by the position of
 *       the field in the headers only: {@code c = PREFIX ^ xor of FORCE[p][b]} over the variant bytes {@code b} at
 *       positions {@code p} from the start of the IP header, where {@code PREFIX = 0xFFFFFFFF ^ (the register after
 *       the eight 0xFF bytes)} and {@code FORCE[p][b] = Z^-p(b ^ 0xFF)}.</li>
 *   <li>Hence the ICRC is the plain CRC-32 (from {@code CRC32}'s own start) of the unmodified covered bytes, xor
 *       {@code Z^n(c)}, {@code n} being the number of covered bytes. {@code Z^n} is linear, so it is applied as four
 *       lookups in a table of 4 x 256 entries for that {@code n} ({@code Z^n} of each byte of {@code c} in its place),
 *       built the first time a length is seen (as zlib's {@code crc32_combine} shifts by a length).</li>
 * </ol>
 * {@code c} and {@code Z^n(c)} depend on the headers and the length only, not on the CRC: they are computed while
 * the CRC runs over the bytes (out of order), so the correction adds almost nothing to the CRC's own time. Nothing is
 * written: {@link Icrc} runs {@code CRC32} over the frame's bytes in place.
 *
 * <p>Memory: a table is 4 KiB; at most {@value #MAX_TABLES} lengths below {@value #TABLE_LENGTHS} get one (4 MiB at
 * most, shared by every thread). Other lengths are shifted through the tables of {@code Z^(2^k)} for the set bits of
 * {@code n} (at most 19 rounds of four lookups): the same value, a little slower.
 */
final class IcrcCorrection {
    /** The last position from the IP header's start that holds a variant byte: the BTH's byte 4 after 60 + 8 bytes. */
    static final int MAX_POSITION = 60 + 8 + 4;
    /** Lengths below this may get a table of their own. */
    static final int TABLE_LENGTHS = 16_384;
    /** At most this many lengths get a table of their own. */
    static final int MAX_TABLES = 1024;
    /** The CRC-32 polynomial, bit-reflected. */
    private static final int POLYNOMIAL = 0xEDB88320;
    /** Powers of two of the step with a table: {@code Z^(2^k)} for k below this (covers lengths up to 2^20 - 1). */
    private static final int POWERS = 20;
    /** The CRC-32 table: {@code TABLE[b] = Z(b)}. */
    private static final int[] TABLE = new int[256];
    /** {@code TOP_INDEX[TABLE[b] >>> 24] = b}. */
    private static final int[] TOP_INDEX = new int[256];
    /** {@code FORCE[(p << 8) | b] = Z^-p(b ^ 0xFF)}, positions 0..{@link #MAX_POSITION}. */
    private static final int[] FORCE = new int[(MAX_POSITION + 1) << 8];
    /** {@code POWER[k]}: the 4 x 256 table of {@code Z^(2^k)}. */
    private static final int[][] POWER = new int[POWERS][];
    /** The table of {@code Z^n} at index n, once built; read with acquire, written with release. */
    private static final int[][] BY_LENGTH = new int[TABLE_LENGTHS][];
    private static final VarHandle BY_LENGTH_ELEMENT = MethodHandles.arrayElementVarHandle(int[][].class);
    private static final AtomicInteger TABLES_BUILT = new AtomicInteger();
    /** The register change at the start when no byte is forced: {@code 0xFFFFFFFF ^ (register after 8 x 0xFF)}. */
    static final int PREFIX;

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
            for (int p = 0; p <= MAX_POSITION; p++) {
                FORCE[(p << 8) | b] = v;
                v = unstep(v);
            }
        }
        int register = 0xFFFFFFFF;
        for (int i = 0; i < 8; i++) {
            register = step(register ^ 0xFF);
        }
        PREFIX = 0xFFFFFFFF ^ register;
        final int[] images = new int[32];
        for (int bit = 0; bit < 32; bit++) {
            images[bit] = step(1 << bit);
        }
        POWER[0] = table(images);
        for (int k = 1; k < POWERS; k++) {
            final int[] half = POWER[k - 1];
            for (int bit = 0; bit < 32; bit++) {
                images[bit] = apply(half, apply(half, 1 << bit));
            }
            POWER[k] = table(images);
        }
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

    /** The change to the start's register change when byte value {@code value} at {@code position} is forced. */
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

    /** {@code Z^length(change)}: a register change at the start of {@code length} bytes, carried to their end. */
    static int shift(final int length, final int change) {
        if (length < TABLE_LENGTHS) {
            final int[] table = (int[]) BY_LENGTH_ELEMENT.getAcquire(BY_LENGTH, length);
            if (table != null) {
                return apply(table, change);
            }
        }
        return shiftRarely(length, change);
    }

    /** The table of {@code Z^length} (built now if it is the first time and the budget allows), or null. */
    static int[] table(final int length) {
        if (length < 0 || length >= TABLE_LENGTHS) {
            return null;
        }
        final int[] table = (int[]) BY_LENGTH_ELEMENT.getAcquire(BY_LENGTH, length);
        if (table != null) {
            return table;
        }
        shiftRarely(length, 0);
        return (int[]) BY_LENGTH_ELEMENT.getAcquire(BY_LENGTH, length);
    }

    /** {@link #shift} for a length without a table (yet): builds one if allowed, else goes by powers of two. */
    private static int shiftRarely(final int length, final int change) {
        if (length >= 0 && length < TABLE_LENGTHS && TABLES_BUILT.get() < MAX_TABLES) {
            final int[] images = new int[32];
            for (int bit = 0; bit < 32; bit++) {
                images[bit] = byPowers(length, 1 << bit);
            }
            final int[] table = table(images);
            // Two threads may build the same length at once: both tables are equal and either may stay.
            if (BY_LENGTH_ELEMENT.compareAndExchangeRelease(BY_LENGTH, length, (int[]) null, table) == null) {
                TABLES_BUILT.incrementAndGet();
            }
            return apply(table, change);
        }
        return byPowers(length, change);
    }

    /** {@code Z^length(change)} through the tables of the powers of two. */
    static int byPowers(final int length, final int change) {
        if (length < 0 || length >= 1 << POWERS) {
            throw new IllegalArgumentException("length " + length + " out of 0.." + ((1 << POWERS) - 1));
        }
        int v = change;
        for (int k = 0, rest = length; rest != 0; k++, rest >>>= 1) {
            if ((rest & 1) != 0) {
                v = apply(POWER[k], v);
            }
        }
        return v;
    }

    /** How many lengths have a table of their own (for tests). */
    static int tablesBuilt() {
        return TABLES_BUILT.get();
    }

    /** A linear map of 32-bit registers, given by the images of the 32 bits, as four tables of 256 entries. */
    private static int[] table(final int[] images) {
        final int[] table = new int[1024];
        for (int k = 0; k < 4; k++) {
            for (int b = 1; b < 256; b++) {
                final int low = Integer.numberOfTrailingZeros(b);
                table[(k << 8) | b] = table[(k << 8) | (b & (b - 1))] ^ images[8 * k + low];
            }
        }
        return table;
    }

    /** The linear map of {@code table} applied to {@code v}. */
    static int apply(final int[] table, final int v) {
        return table[v & 0xFF] ^ table[256 | ((v >>> 8) & 0xFF)] ^ table[512 | ((v >>> 16) & 0xFF)]
            ^ table[768 | (v >>> 24)];
    }
}
