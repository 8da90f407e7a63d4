package org.metaroce.mrct.spark.internal;

import java.io.Serializable;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import org.apache.spark.Partitioner;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.JavaPairRDD;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.api.java.function.FlatMapFunction;
import org.apache.spark.api.java.function.PairFlatMapFunction;
import org.apache.spark.storage.StorageLevel;
import org.apache.spark.util.LongAccumulator;
import org.apache.spark.util.TaskCompletionListener;
import org.metaroce.mrct.analyzer.CaptureMatch;
import org.metaroce.mrct.analyzer.CaptureMatchParts;
import org.metaroce.mrct.analyzer.ViewFinding;
import org.metaroce.mrct.harness.result.CaseResult;
import scala.Tuple2;

/**
 * The matching of several captures spread over tasks ({@link CaptureMatchParts}): one task per capture reads its
 * RoCEv2 frames into sightings (about 40 bytes each: time, capture, record number, flow, PSN, opcode, ICRC) keyed by
 * their host pair; a shuffle deals the host pairs to {@code tasks} tasks and sorts each task's sightings by time,
 * capture and record number (Spark's sort, which spills to disk: a task's memory is its flows' state and the frames
 * within the match window, not its share of the frames); every task also gets every capture's span first. Each task
 * matches its host pairs' flows; the flows are numbered by first sighting across the tasks (a distributed sort), and
 * only the flows seen in two captures or more, with their cases and findings, come back to the driver.
 *
 * <p>The result is the one-task matching's flow for flow when every capture's RoCEv2 frames are in timestamp order;
 * when one is not ({@link CaptureMatchParts.Span#inOrder()}, counted in an accumulator), {@link #match} returns null
 * and the caller matches the captures in one task, as the k-way merge of the whole matching then depends on every
 * capture's order.
 */
public final class MatchAcross {
    private MatchAcross() {
    }

    /**
     * Matches {@code captures} in {@code tasks} tasks; null when a capture's frames are out of timestamp order.
     *
     * @param work     what copies a remote capture to the executor's disk
     * @param windowNs the match window
     */
    public static CaptureMatch match(final JavaSparkContext context, final List<Capture> captures,
                                     final AnalyseWork work, final long windowNs, final int tasks) {
        final LongAccumulator unordered = context.sc().longAccumulator("mrct captures out of timestamp order");
        final ArrayList<String> names = new ArrayList<>();
        for (final Capture capture : captures) {
            names.add(capture.name());
        }
        final JavaPairRDD<Order, byte[]> sightings = context.parallelize(captures, captures.size())
            .flatMapToPair(new ReadSightings(work, tasks, unordered));
        final JavaRDD<FlowEntry> flows = sightings
            .repartitionAndSortWithinPartitions(new ByPart(tasks), new OrderComparator())
            .mapPartitions(new MatchPart(names, windowNs));
        flows.persist(StorageLevel.MEMORY_AND_DISK());
        try {
            flows.count();
            if (unordered.value() > 0) {
                return null;
            }
            final List<Tuple2<FlowEntry, Long>> ranked = flows.sortBy(FlowEntry::key, true, tasks).zipWithIndex()
                .filter(t -> t._1().json() != null).collect();
            final List<CaseResult> cases = new ArrayList<>();
            final List<ViewFinding> findings = new ArrayList<>();
            for (final Tuple2<FlowEntry, Long> flow : ranked) {
                final CaptureMatch numbered = CaptureMatchParts.numbered(CaseCodec.read(flow._1().json(),
                    CaptureMatch.class), Math.toIntExact(flow._2() + 1));
                cases.addAll(numbered.cases());
                findings.addAll(numbered.findings());
            }
            return new CaptureMatch(cases, findings);
        } finally {
            flows.unpersist(false);
        }
    }

    /**
     * A sighting's (or a span's) place: its task, then spans first, then time, capture and record number.
     *
     * @param part the task
     * @param span true for a capture's span (sorted before every frame)
     */
    record Order(int part, boolean span, long ts, int capture, long number) implements Serializable {
        private static final long serialVersionUID = 1L;
    }

    /** Orders within a task: spans first, then time, capture, record number. */
    static final class OrderComparator implements Comparator<Order>, Serializable {
        private static final long serialVersionUID = 1L;

        @Override
        public int compare(final Order a, final Order b) {
            if (a.span() != b.span()) {
                return a.span() ? -1 : 1;
            }
            if (a.ts() != b.ts()) {
                return Long.compare(a.ts(), b.ts());
            }
            if (a.capture() != b.capture()) {
                return Integer.compare(a.capture(), b.capture());
            }
            return Long.compare(a.number(), b.number());
        }
    }

    /** Deals the sightings to tasks by the part their key names. */
    static final class ByPart extends Partitioner {
        private static final long serialVersionUID = 1L;
        private final int parts;

        ByPart(final int parts) {
            this.parts = parts;
        }

        @Override
        public int numPartitions() {
            return parts;
        }

        @Override
        public int getPartition(final Object key) {
            return ((Order) key).part();
        }

        @Override
        public boolean equals(final Object other) {
            return other instanceof ByPart p && p.parts == parts;
        }

        @Override
        public int hashCode() {
            return parts;
        }
    }

    /**
     * One flow a task saw: its first sighting, and its one-flow {@link CaptureMatch} as JSON when two captures or more
     * saw it (else null).
     */
    record FlowEntry(long firstTs, int firstCapture, long firstNumber, String json) implements Serializable {
        private static final long serialVersionUID = 1L;

        FirstSighting key() {
            return new FirstSighting(firstTs, firstCapture, firstNumber);
        }
    }

    /** What flows are numbered by: their first sighting's time, capture and record number. */
    record FirstSighting(long ts, int capture, long number) implements Serializable, Comparable<FirstSighting> {
        private static final long serialVersionUID = 1L;

        @Override
        public int compareTo(final FirstSighting o) {
            return ts != o.ts ? Long.compare(ts, o.ts) : capture != o.capture ? Integer.compare(capture, o.capture)
                : Long.compare(number, o.number);
        }
    }

    /** One capture read into sightings, each keyed to its host pair's task; then the capture's span, to every task. */
    static final class ReadSightings implements PairFlatMapFunction<Capture, Order, byte[]> {
        private static final long serialVersionUID = 1L;
        private final AnalyseWork work;
        private final int parts;
        private final LongAccumulator unordered;

        ReadSightings(final AnalyseWork work, final int parts, final LongAccumulator unordered) {
            this.work = work;
            this.parts = parts;
            this.unordered = unordered;
        }

        @Override
        public Iterator<Tuple2<Order, byte[]>> call(final Capture capture) {
            final Path local = work.fetch(capture);
            final CaptureMatchParts.Reader reader = CaptureMatchParts.Reader.open(local != null ? local
                : Path.of(System.getProperty("java.io.tmpdir"), "mrct-unreadable-" + capture.index()),
                capture.index());
            final Runnable release = () -> {
                reader.close();
                work.release(capture, local);
            };
            final TaskContext task = TaskContext.get();
            if (task != null) {
                task.addTaskCompletionListener((TaskCompletionListener) context -> release.run());
            }
            return new Iterator<>() {
                private Tuple2<Order, byte[]> next;
                private int spans = -1;
                private byte[] span;

                @Override
                public boolean hasNext() {
                    if (next != null) {
                        return true;
                    }
                    if (spans < 0) {
                        if (reader.next()) {
                            next = new Tuple2<>(new Order(Math.floorMod(reader.hostPair(), parts), false, reader.ts(),
                                capture.index(), reader.number()), reader.sighting());
                            return true;
                        }
                        final CaptureMatchParts.Span done = reader.span();
                        if (!done.inOrder()) {
                            unordered.add(1);
                        }
                        span = done.encode();
                        spans = 0;
                        release.run();
                    }
                    if (spans < parts) {
                        next = new Tuple2<>(new Order(spans, true, 0, capture.index(), 0), span);
                        spans++;
                        return true;
                    }
                    return false;
                }

                @Override
                public Tuple2<Order, byte[]> next() {
                    if (!hasNext()) {
                        throw new NoSuchElementException();
                    }
                    final Tuple2<Order, byte[]> out = next;
                    next = null;
                    return out;
                }
            };
        }
    }

    /** One task's host pairs matched: its sightings in order, after every capture's span. */
    static final class MatchPart implements FlatMapFunction<Iterator<Tuple2<Order, byte[]>>, FlowEntry> {
        private static final long serialVersionUID = 1L;
        private final ArrayList<String> names;
        private final long windowNs;

        MatchPart(final ArrayList<String> names, final long windowNs) {
            this.names = names;
            this.windowNs = windowNs;
        }

        @Override
        public Iterator<FlowEntry> call(final Iterator<Tuple2<Order, byte[]>> sightings) {
            final List<CaptureMatchParts.Span> spans = new ArrayList<>();
            CaptureMatchParts.Matcher matcher = null;
            while (sightings.hasNext()) {
                final Tuple2<Order, byte[]> s = sightings.next();
                if (s._1().span()) {
                    spans.add(CaptureMatchParts.Span.decode(s._2()));
                    continue;
                }
                if (matcher == null) {
                    if (spans.size() != names.size()) {
                        throw new IllegalStateException("the matching got " + spans.size() + " spans of "
                            + names.size() + " captures");
                    }
                    matcher = new CaptureMatchParts.Matcher(names, windowNs, spans);
                }
                matcher.add(s._2());
            }
            final List<FlowEntry> out = new ArrayList<>();
            if (matcher != null) {
                for (final CaptureMatchParts.Flow flow : matcher.finish()) {
                    out.add(new FlowEntry(flow.firstTs(), flow.firstCapture(), flow.firstNumber(),
                        flow.match() == null ? null : CaseCodec.write(flow.match())));
                }
            }
            return out.iterator();
        }
    }
}
