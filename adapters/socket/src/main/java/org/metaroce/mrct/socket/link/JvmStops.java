package org.metaroce.mrct.socket.link;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Whether this JVM stopped its threads (a safepoint: a collection, deoptimisation, a code cache sweep) between two
 * moments: HotSpot's own counters of safepoints and of the time spent in them, read from its performance-data file
 * ({@code /tmp/hsperfdata_USER/PID}, which {@code jstat} reads too), mapped once. A thread stopped at a safepoint is
 * asleep without being in any system call it chose, which nothing else it can measure about itself tells apart from a
 * wait in the kernel; see {@link WakeLatency}.
 *
 * <p>The file's layout (HotSpot's {@code perfMemory.hpp}): a prologue (magic 0xcafec0c0, byte order, versions,
 * used, overflow, modification time, offset of the first entry, number of entries) and entries (length, name offset,
 * vector length, type, flags, units, variability, data offset) with the name and a {@code long} value inside each.
 */
final class JvmStops {
    private static final int MAGIC = 0xcafec0c0;
    private static final VarHandle LONG_BE = MethodHandles.byteBufferViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle LONG_LE = MethodHandles.byteBufferViewVarHandle(long[].class,
        ByteOrder.LITTLE_ENDIAN);
    private static final JvmStops NONE = new JvmStops(null, -1, -1, null);

    private final ByteBuffer data;
    private final int countAt;
    private final int timeAt;
    private final VarHandle longs;

    private JvmStops(final ByteBuffer data, final int countAt, final int timeAt, final VarHandle longs) {
        this.data = data;
        this.countAt = countAt;
        this.timeAt = timeAt;
        this.longs = longs;
    }

    /** This JVM's counters, or an instance whose {@link #available()} is false (no file, another VM, a bad layout). */
    static JvmStops ofThisJvm() {
        final String user = System.getProperty("user.name", "");
        final Path file = Path.of("/tmp", "hsperfdata_" + user, Long.toString(ProcessHandle.current().pid()));
        if (!Files.isReadable(file)) {
            return NONE;
        }
        try (FileChannel channel = FileChannel.open(file)) {
            return parse(channel.map(FileChannel.MapMode.READ_ONLY, 0, channel.size()));
        } catch (IOException | RuntimeException e) {
            return NONE;
        }
    }

    /** The counters in a performance-data image (package-private for tests). */
    static JvmStops parse(final ByteBuffer image) {
        final ByteBuffer buffer = image.duplicate().order(ByteOrder.BIG_ENDIAN);
        if (buffer.limit() < 32 || buffer.getInt(0) != MAGIC) {
            return NONE;
        }
        final ByteOrder order = buffer.get(4) == 0 ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN;
        buffer.order(order);
        int entry = buffer.getInt(24);
        final int entries = buffer.getInt(28);
        int countAt = -1;
        int timeAt = -1;
        for (int i = 0; i < entries && entry > 0 && entry + 20 <= buffer.limit(); i++) {
            final int length = buffer.getInt(entry);
            final int nameAt = entry + buffer.getInt(entry + 4);
            final int valueAt = entry + buffer.getInt(entry + 16);
            final byte type = buffer.get(entry + 12);
            final String name = name(buffer, nameAt, entry + length);
            if (type == 'J' && valueAt % 8 == 0 && valueAt + 8 <= buffer.limit()) {
                if ("sun.rt.safepoints".equals(name)) {
                    countAt = valueAt;
                } else if ("sun.rt.safepointTime".equals(name)) {
                    timeAt = valueAt;
                }
            }
            if (length <= 0) {
                break;
            }
            entry += length;
        }
        if (countAt < 0 || timeAt < 0) {
            return NONE;
        }
        return new JvmStops(buffer, countAt, timeAt, order == ByteOrder.BIG_ENDIAN ? LONG_BE : LONG_LE);
    }

    private static String name(final ByteBuffer buffer, final int from, final int limit) {
        int end = from;
        while (end < limit && end < buffer.limit() && buffer.get(end) != 0) {
            end++;
        }
        final byte[] bytes = new byte[Math.max(0, end - from)];
        buffer.get(from, bytes);
        return new String(bytes, StandardCharsets.US_ASCII);
    }

    /** Whether the counters were found. */
    boolean available() {
        return data != null;
    }

    /**
     * A value that changes whenever a safepoint begins or ends: the count (HotSpot raises it as one begins) plus the
     * time spent in safepoints (raised as one ends), so that a stop under way at the first reading shows at the second.
     */
    long mark() {
        return data == null ? 0 : (long) longs.getVolatile(data, countAt) + (long) longs.getVolatile(data, timeAt);
    }
}
