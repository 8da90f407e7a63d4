package org.metaroce.mrct.socket.link;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The JVM's safepoint counters read from its performance-data file. */
class JvmStopsTest {
    /** A performance-data image with the given counters, laid out as HotSpot does (perfMemory.hpp). */
    static ByteBuffer image(final ByteOrder order, final String[] names, final long[] values) {
        final ByteBuffer b = ByteBuffer.allocate(4096).order(order);
        b.order(ByteOrder.BIG_ENDIAN).putInt(0, 0xcafec0c0).order(order);
        b.put(4, (byte) (order == ByteOrder.BIG_ENDIAN ? 0 : 1));
        b.put(5, (byte) 2);
        int entry = 32;
        b.putInt(24, entry);
        b.putInt(28, names.length);
        for (int i = 0; i < names.length; i++) {
            final byte[] name = names[i].getBytes(StandardCharsets.US_ASCII);
            final int nameAt = 20;
            final int valueAt = (nameAt + name.length + 1 + 7 + entry) / 8 * 8 - entry;
            final int length = valueAt + 8;
            b.putInt(entry, length);
            b.putInt(entry + 4, nameAt);
            b.putInt(entry + 8, 0);
            b.put(entry + 12, (byte) 'J');
            b.putInt(entry + 16, valueAt);
            b.put(entry + nameAt, name);
            b.putLong(entry + valueAt, values[i]);
            entry += length;
        }
        return b;
    }

    @Test
    void theCountersAreFoundInEitherByteOrder() {
        for (final ByteOrder order : new ByteOrder[] {ByteOrder.BIG_ENDIAN, ByteOrder.LITTLE_ENDIAN}) {
            final ByteBuffer b = image(order, new String[] {"sun.os.hrt.frequency", "sun.rt.safepoints",
                "sun.rt.safepointTime"}, new long[] {1_000_000_000L, 7, 1234});
            final JvmStops stops = JvmStops.parse(b);
            assertThat(stops.available()).as(order.toString()).isTrue();
            assertThat(stops.mark()).as(order.toString()).isEqualTo(7 + 1234);
        }
    }

    @Test
    void aSafepointThatEndsChangesTheMark() {
        final ByteBuffer b = image(ByteOrder.LITTLE_ENDIAN, new String[] {"sun.rt.safepoints", "sun.rt.safepointTime"},
            new long[] {3, 500});
        final JvmStops stops = JvmStops.parse(b);
        final long before = stops.mark();
        // the time in safepoints grows as one ends, the count as one begins
        b.putLong(findLong(b, 500), 900);
        assertThat(stops.mark()).isNotEqualTo(before);
    }

    private static int findLong(final ByteBuffer b, final long value) {
        for (int i = 0; i + 8 <= b.limit(); i += 8) {
            if (b.getLong(i) == value) {
                return i;
            }
        }
        throw new AssertionError("no " + value);
    }

    @Test
    void anImageWithoutTheCountersOrMagicIsUnavailable() {
        assertThat(JvmStops.parse(image(ByteOrder.BIG_ENDIAN, new String[] {"sun.rt.safepoints"}, new long[] {1}))
            .available()).isFalse();
        final ByteBuffer bad = image(ByteOrder.BIG_ENDIAN, new String[] {"sun.rt.safepoints", "sun.rt.safepointTime"},
            new long[] {1, 2});
        bad.putInt(0, 0x12345678);
        assertThat(JvmStops.parse(bad).available()).isFalse();
        assertThat(JvmStops.parse(ByteBuffer.allocate(8)).available()).isFalse();
        assertThat(JvmStops.parse(ByteBuffer.allocate(8)).mark()).isZero();
    }

    @Test
    void thisJvmsCountersMoveWithACollection() {
        final JvmStops stops = JvmStops.ofThisJvm();
        assumeTrue(stops.available(), "no HotSpot performance data in /tmp/hsperfdata_" + System.getProperty("user.name"));
        final long before = stops.mark();
        System.gc(); // a full collection at a safepoint (unless -XX:+ExplicitGCInvokesConcurrent)
        assertThat(stops.mark()).isNotEqualTo(before);
    }
}
