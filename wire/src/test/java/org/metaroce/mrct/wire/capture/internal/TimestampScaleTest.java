package org.metaroce.mrct.wire.capture.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigInteger;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Every {@code if_tsresol} value against exact big-integer arithmetic, on seeded and extreme unit counts. */
class TimestampScaleTest {
    private static final long SEED = 0x5453_5245_534FL;
    private static final BigInteger NANOS_PER_SECOND = BigInteger.valueOf(1_000_000_000L);
    private static final BigInteger LONG_MAX = BigInteger.valueOf(Long.MAX_VALUE);

    @Test
    void matchesExactArithmeticForEveryResolution() {
        final Random random = new Random(SEED);
        for (int tsresol = 0; tsresol < 256; tsresol++) {
            final TimestampScale scale = TimestampScale.of(tsresol);
            final long[] units = new long[40];
            units[0] = 0;
            units[1] = 1;
            units[2] = -1;
            units[3] = Long.MAX_VALUE;
            units[4] = Long.MIN_VALUE;
            for (int i = 5; i < units.length; i++) {
                units[i] = random.nextLong() >>> random.nextInt(64);
            }
            for (final long count : units) {
                assertThat(scale.toNanos(count)).as("seed %d, if_tsresol %d, units %s", SEED, tsresol,
                        Long.toUnsignedString(count)).isEqualTo(expected(tsresol, count));
            }
        }
    }

    @Test
    void namesItsUnit() {
        assertThat(TimestampScale.of(6).unit()).isEqualTo("10^-6 s");
        assertThat(TimestampScale.of(0x89).unit()).isEqualTo("2^-9 s");
    }

    /** floor(units * 10^9 / base^exponent), or -1 beyond a signed 64-bit value. */
    private static long expected(final int tsresol, final long units) {
        final int exponent = tsresol & 0x7F;
        final BigInteger perSecond = (tsresol & 0x80) != 0 ? BigInteger.TWO.pow(exponent)
                : BigInteger.TEN.pow(exponent);
        final BigInteger nanos = new BigInteger(Long.toUnsignedString(units)).multiply(NANOS_PER_SECOND)
                .divide(perSecond);
        return nanos.compareTo(LONG_MAX) > 0 ? -1 : nanos.longValueExact();
    }
}
