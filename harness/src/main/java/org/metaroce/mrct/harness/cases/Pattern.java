package org.metaroce.mrct.harness.cases;

import java.util.HexFormat;
import java.util.SplittableRandom;
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
                // byte i is a function of (seed, i) alone: one generator per 8-byte block
                final long seed = value.eval(names);
                long block = -1;
                long bits = 0;
                for (int i = 0; i < length; i++) {
                    final long index = offset + i;
                    if (index >>> 3 != block) {
                        block = index >>> 3;
                        bits = new SplittableRandom(seed ^ (block * 0x9E3779B97F4A7C15L)).nextLong();
                    }
                    out[i] = (byte) (bits >>> ((index & 7) * 8));
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
