package org.metaroce.mrct.harness.cases;

import java.util.HexFormat;
import java.util.function.Function;

/**
 * A byte pattern, for payloads, memory fills and memory expectations. Byte {@code i} of a pattern is a function of
 * {@code i} alone, so any window of it can be produced: a message's packet at offset {@code o} carries bytes
 * {@code [o, o + len)} of its message's pattern, and the memory where it lands must then hold the same bytes.
 *
 * @param kind seq (byte i = start + i), constant (every byte = value), random (seeded), hex (explicit bytes, repeated)
 * @param value start (seq), value (constant) or seed (random)
 * @param hex the bytes of a hex pattern
 */
public record Pattern(Kind kind, Expr value, byte[] hex) {
    /** Pattern kinds. */
    public enum Kind { SEQ, CONSTANT, RANDOM, HEX }

    /** All zero bytes. */
    public static final Pattern ZERO = new Pattern(Kind.CONSTANT, Expr.of(0), null);

    /** Parses the text form of a hex pattern ({@code "de ad be ef"} or {@code "deadbeef"}). */
    public static byte[] parseHex(final String text) {
        final String clean = text.replaceAll("[\\s:]", "");
        if (clean.isEmpty() || clean.length() % 2 != 0) {
            throw new IllegalArgumentException("'" + text + "' is not an even number of hex digits");
        }
        return HexFormat.of().parseHex(clean);
    }

    /** Bytes {@code [offset, offset + length)} of the pattern. */
    public byte[] bytes(final long offset, final int length, final Function<String, Long> names) {
        final byte[] out = new byte[length];
        switch (kind) {
            case SEQ: {
                final long start = value.eval(names);
                for (int i = 0; i < length; i++) {
                    out[i] = (byte) (start + offset + i);
                }
                break;
            }
            case CONSTANT: {
                final byte b = (byte) value.eval(names);
                java.util.Arrays.fill(out, b);
                break;
            }
            case RANDOM: {
                // byte i is a function of (seed, i) alone: block i / 8 is the first value of a SplittableRandom
                // seeded with seed ^ (block * 0x9E37...), little-endian, computed here without a generator per block
                final long seed = value.eval(names);
                int i = 0;
                while (i < length) {
                    final long index = offset + i;
                    final long bits = blockBits(seed, index >>> 3);
                    if ((index & 7) == 0 && length - i >= 8) {
                        for (int b = 0; b < 8; b++) {
                            out[i + b] = (byte) (bits >>> (b * 8));
                        }
                        i += 8;
                    } else {
                        out[i] = (byte) (bits >>> ((index & 7) * 8));
                        i++;
                    }
                }
                break;
            }
            default:
                for (int i = 0; i < length; i++) {
                    out[i] = hex[(int) ((offset + i) % hex.length)];
                }
                break;
        }
        return out;
    }

    /** SplittableRandom's golden gamma: its default increment, added to the seed before the first value. */
    private static final long GOLDEN_GAMMA = 0x9E3779B97F4A7C15L;

    /**
     * The 8 bytes of random block {@code block}: {@code new SplittableRandom(seed ^ (block * GOLDEN_GAMMA))
     * .nextLong()}, that is SplittableRandom's mix64 (Stafford's variant 13) of the seed plus the gamma, without making
     * a generator per block (a fill of 512 KiB made 65,536); {@code PatternTest} checks it against SplittableRandom.
     */
    static long blockBits(final long seed, final long block) {
        long z = (seed ^ (block * GOLDEN_GAMMA)) + GOLDEN_GAMMA;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    @Override
    public String toString() {
        switch (kind) {
            case SEQ:
                return "seq from " + value;
            case CONSTANT:
                return "constant " + value;
            case RANDOM:
                return "random seed " + value;
            default:
                return "hex " + HexFormat.of().formatHex(hex);
        }
    }

    @Override
    public boolean equals(final Object other) {
        return other instanceof Pattern that && kind == that.kind && String.valueOf(value).equals(String.valueOf(
            that.value)) && java.util.Arrays.equals(hex, that.hex);
    }

    @Override
    public int hashCode() {
        return kind.hashCode() * 31 + String.valueOf(value).hashCode();
    }
}
