package org.metaroce.mrct.analyzer.internal;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import org.metaroce.mrct.wire.DecodeStatus;
import org.metaroce.mrct.wire.DecodedFrame;
import org.metaroce.mrct.wire.FrameDecoder;
import org.metaroce.mrct.wire.HeaderKind;
import org.metaroce.mrct.wire.RoceVersion;
import org.metaroce.mrct.wire.capture.CaptureReader;

/**
 * One capture's RoCEv2 frames, one {@link Sighting} at a time, for the matching of several captures: Ethernet and the
 * link types {@link LinkLayer} turns into Ethernet; records larger than any frame skipped; the reading stops at damage
 * (the capture's own analysis names it). Also tracks what the matching asks of a capture: the timestamps of its first
 * and last RoCEv2 frames and whether they came in timestamp order.
 */
public final class SightingReader implements Closeable {
    private final CaptureReader reader;
    private final FrameDecoder decoder = new FrameDecoder();
    private ByteBuffer scratch = ByteBuffer.allocate(1 << 16);
    /** The current frame (valid after {@link #advance} returned true). */
    final Sighting seen = new Sighting();
    final int index;
    long firstTs = Long.MIN_VALUE;
    long lastTs = Long.MIN_VALUE;
    boolean done;
    boolean inOrder = true;

    private SightingReader(final int index, final CaptureReader reader) {
        this.index = index;
        this.reader = reader;
    }

    /** Opens capture number {@code index}; null when it cannot be read at all (its own analysis says why). */
    public static SightingReader open(final Path path, final int index) {
        try {
            return new SightingReader(index, CaptureReader.open(path));
        } catch (IOException e) {
            return null;
        }
    }

    /** Moves to the next RoCEv2 frame; false at the end (or at damage, which the analysis reports). */
    public boolean advance() {
        try {
            while (reader.next()) {
                if (reader.capturedLength() > PrefetchReader.MAX_FRAME) {
                    continue;
                }
                ByteBuffer b = reader.buffer();
                int offset = reader.offset();
                int length = reader.capturedLength();
                if (reader.linkType() != CaptureReader.LINKTYPE_ETHERNET) {
                    if (!LinkLayer.supported(reader.linkType())) {
                        continue;
                    }
                    if (scratch.capacity() < length + 16) {
                        scratch = ByteBuffer.allocate(length + 16);
                    }
                    length = LinkLayer.toEthernet(reader.linkType(), b, offset, length, scratch);
                    if (length < 0) {
                        continue;
                    }
                    b = scratch;
                    offset = 0;
                }
                final DecodedFrame d = decoder.decode(b, offset, length);
                if (d.status() != DecodeStatus.ROCE || d.version() != RoceVersion.V2 || !d.has(HeaderKind.BTH)) {
                    continue;
                }
                final long ts = reader.timestampNanos();
                seen.fill(d, b, index, reader.recordNumber(), ts);
                if (firstTs == Long.MIN_VALUE) {
                    firstTs = ts;
                }
                if (ts < lastTs) {
                    inOrder = false;
                }
                lastTs = Math.max(lastTs, ts);
                return true;
            }
        } catch (IOException e) {
            // damage: the per-capture analysis names it; the matching stops at it
        }
        done = true;
        return false;
    }

    /** The current frame. */
    public Sighting sighting() {
        return seen;
    }

    /** The first RoCEv2 frame's timestamp, {@link Long#MIN_VALUE} before it (or when there is none). */
    public long firstTs() {
        return firstTs;
    }

    /** The latest RoCEv2 timestamp so far, {@link Long#MIN_VALUE} before the first. */
    public long lastTs() {
        return lastTs;
    }

    /** True while every RoCEv2 frame read came no earlier than the one before it. */
    public boolean inOrder() {
        return inOrder;
    }

    /** True when this capture was capturing over {@code [from, to]}. */
    boolean covers(final long from, final long to) {
        return firstTs != Long.MIN_VALUE && firstTs <= from && (!done || lastTs >= to);
    }

    @Override
    public void close() {
        try {
            reader.close();
        } catch (IOException e) {
            // read only
        }
    }
}
