package org.metaroce.mrct.analyzer;

import java.io.Closeable;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.metaroce.mrct.analyzer.internal.Sighting;
import org.metaroce.mrct.analyzer.internal.SightingReader;
import org.metaroce.mrct.analyzer.internal.ViewMatcher;
import org.metaroce.mrct.wire.BigEndian;

/**
 * The matching of several captures ({@link CaptureAnalyzer#match}) in parts, for a cluster: each capture read apart
 * into its frames' sightings ({@link Reader}), the sightings grouped by host pair (both directions of every flow
 * between two hosts: {@link Reader#hostPair()}), each group of host pairs matched apart ({@link Matcher}, fed its
 * sightings in timestamp order, captures in index order at equal times, each capture's frames in record order, after
 * every capture's {@link Span}), and the flows seen in two captures or more numbered by first sighting across all the
 * parts ({@link #numbered}). The result is the whole matching's, flow for flow, when every capture's RoCEv2 frames
 * are in timestamp order ({@link Span#inOrder()}); a capture out of order must be matched whole
 * ({@link CaptureAnalyzer#match}), as the k-way merge of the whole matching then depends on every capture's order.
 */
public final class CaptureMatchParts {
    private CaptureMatchParts() {
    }

    /**
     * What the matching knows of a capture besides its frames.
     *
     * @param capture  its index among the captures
     * @param readable false when it could not be opened (it has no frames)
     * @param firstTs  its first RoCEv2 frame's timestamp ({@link Long#MIN_VALUE} when it has none)
     * @param lastTs   its latest RoCEv2 timestamp ({@link Long#MIN_VALUE} when it has none)
     * @param inOrder  true when its RoCEv2 frames came in timestamp order
     */
    public record Span(int capture, boolean readable, long firstTs, long lastTs, boolean inOrder) {
        /** As bytes (big-endian: capture, flags, first, last). */
        public byte[] encode() {
            final ByteBuffer out = ByteBuffer.allocate(21).order(ByteOrder.BIG_ENDIAN);
            out.putInt(0, capture);
            out.put(4, (byte) ((readable ? 1 : 0) | (inOrder ? 2 : 0)));
            out.putLong(5, firstTs);
            out.putLong(13, lastTs);
            return out.array();
        }

        /** A span {@link #encode} wrote. */
        public static Span decode(final byte[] bytes) {
            final ByteBuffer in = ByteBuffer.wrap(bytes);
            final int flags = BigEndian.u8(in, 4);
            return new Span(BigEndian.i32(in, 0), (flags & 1) != 0, BigEndian.i64(in, 5), BigEndian.i64(in, 13),
                (flags & 2) != 0);
        }

        boolean covers(final long from, final long to) {
            return firstTs != Long.MIN_VALUE && firstTs <= from && lastTs >= to;
        }
    }

    /** One capture's RoCEv2 frames as sightings, in record order; then its {@link #span()}. */
    public static final class Reader implements Closeable {
        private final int capture;
        private final SightingReader reader;
        private boolean more;

        private Reader(final int capture, final SightingReader reader) {
            this.capture = capture;
            this.reader = reader;
        }

        /** Opens capture number {@code capture}; one that cannot be opened gives no frame. */
        public static Reader open(final Path path, final int capture) {
            return new Reader(capture, SightingReader.open(path, capture));
        }

        /** Moves to the next RoCEv2 frame; false at the end or at damage. */
        public boolean next() {
            more = reader != null && reader.advance();
            return more;
        }

        /** The current frame's timestamp. */
        public long ts() {
            return reader.sighting().ts;
        }

        /** The current frame's record number. */
        public long number() {
            return reader.sighting().number;
        }

        /** The current frame's two hosts, the same both ways: what the sightings are grouped by. */
        public long hostPair() {
            return reader.sighting().hostPair();
        }

        /** The current frame, for a {@link Matcher}. */
        public byte[] sighting() {
            return reader.sighting().encode();
        }

        /** The capture's span (complete once {@link #next} returned false). */
        public Span span() {
            return reader == null ? new Span(capture, false, Long.MIN_VALUE, Long.MIN_VALUE, true)
                : new Span(capture, true, reader.firstTs(), reader.lastTs(), reader.inOrder());
        }

        @Override
        public void close() {
            if (reader != null) {
                reader.close();
            }
        }
    }

    /**
     * One flow a {@link Matcher} saw: its first sighting (what flows are numbered by), and its case and findings when
     * two captures or more saw it (null otherwise), numbered among the part's flows only: {@link #numbered} numbers
     * it among all.
     */
    public record Flow(long firstTs, int firstCapture, long firstNumber, CaptureMatch match) {
    }

    /** Matches the sightings of some host pairs. */
    public static final class Matcher {
        private final ViewMatcher matcher;
        private final Sighting seen = new Sighting();

        /**
         * @param names    every capture's name, by index
         * @param windowNs the match window
         * @param spans    every capture's span, by index
         */
        public Matcher(final List<String> names, final long windowNs, final List<Span> spans) {
            final Span[] byIndex = new Span[names.size()];
            for (final Span span : spans) {
                byIndex[span.capture()] = span;
            }
            this.matcher = new ViewMatcher(windowNs, new ViewMatcher.Captures() {
                @Override
                public String name(final int capture) {
                    return names.get(capture);
                }

                @Override
                public boolean covers(final int capture, final long from, final long to) {
                    return byIndex[capture] != null && byIndex[capture].covers(from, to);
                }
            });
        }

        /** The next sighting ({@link Reader#sighting()}), in the order of the class comment. */
        public void add(final byte[] sighting) {
            seen.decode(sighting);
            matcher.add(seen);
        }

        /** Every flow seen, in order of first sighting. */
        public List<Flow> finish() {
            matcher.finish();
            final List<Flow> out = new ArrayList<>();
            for (final ViewMatcher.FlowOutcome f : matcher.outcomes()) {
                out.add(new Flow(f.firstTs(), f.firstCapture(), f.firstNumber(),
                    f.view() == null ? null : new CaptureMatch(List.of(f.view()), f.findings())));
            }
            return out;
        }
    }

    /**
     * A flow's match ({@link Flow#match()}) with its case numbered {@code number} (1-based) among every flow of the
     * captures, by first sighting: timestamp, then capture index, then record number.
     */
    public static CaptureMatch numbered(final CaptureMatch flow, final int number) {
        final List<org.metaroce.mrct.harness.result.CaseResult> cases = new ArrayList<>();
        for (final var c : flow.cases()) {
            cases.add(ViewMatcher.numbered(c, number));
        }
        return new CaptureMatch(cases, flow.findings());
    }
}
