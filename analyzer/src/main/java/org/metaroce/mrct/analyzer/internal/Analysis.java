package org.metaroce.mrct.analyzer.internal;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.function.Consumer;
import org.metaroce.mrct.harness.profile.DeviceProfile;
import org.metaroce.mrct.harness.result.CaseResult;
import org.metaroce.mrct.harness.spec.Specification;
import org.metaroce.mrct.wire.capture.CaptureFormatException;
import org.metaroce.mrct.wire.capture.CaptureReader;

/**
 * One analysis: the options shared by every capture, and the analysis of each file into report cases. The public
 * entry point is {@code org.metaroce.mrct.analyzer.CaptureAnalyzer}.
 */
public final class Analysis {
    /** The transport version the checks assume. */
    public enum Mode {
        /** From each connection's frames (bth.tver): TVer 0 by the legacy rules, TVer 1 by MetaRoCE v1. */
        AUTO,
        /** Every connection is TVer 0 (plain RoCEv2). */
        LEGACY,
        /** Every connection is TVer 1 (MetaRoCE v1). */
        METAROCE
    }

    /**
     * What one file gave: its counts, and its connections in report order, whose cases are built on demand
     * ({@link #forEachCase}) so that an analysis need not hold every case of every file at once.
     */
    public static final class FileResult {
        private final Results results;
        private final List<Connection> connections;
        private final String prefix;
        /** The NOT_APPLICABLE cases of the frames outside MetaRoCE's scope, one per kind (after the connections'). */
        private final List<CaseResult> outOfScope;
        /** The capture as given. */
        public final String name;
        /** Records read. */
        public final long frames;
        /** RoCE frames among them. */
        public final long roceFrames;
        /** Connections found. */
        public final int connectionCount;
        /** Frames cut short by the capture's snap length. */
        public final long cutFrames;
        /** Frames of a link type not analysed (neither Ethernet nor Linux cooked), RoCEv1 frames. */
        public final long otherLinkFrames;
        /** Records larger than any frame, not analysed. */
        public final long oversizedFrames;
        /** The first of them ({@code record R at byte B: ...}), or null. */
        public final String oversized;
        /** True for an mrct evidence file. */
        public final boolean evidence;
        /** Time spent reading and analysing. */
        public final long elapsedNs;
        /** Why the file could not be read to its end ({@code byte N (record R): reason}), or null. */
        public final String problem;
        /** Connections released before the capture's end (issue 12), and those of them before their window ran out. */
        public final long released;
        public final long releasedEarly;
        /** Flows that resumed the QP of a released connection: new segments. */
        public final long resumedFlows;
        /** The cases of the released connections, spilled; null when none was released. */
        private final ReleasedCases spill;
        /** The held connections' first frames (they are let go as they are reported). */
        private final long[] firstFrames;

        FileResult(final Results results, final List<Connection> connections, final String prefix, final String name,
                   final Session session, final String problem, final boolean empty, final ReleasedCases spill) {
            this.results = results;
            this.spill = spill == null || spill.size() == 0 ? null : spill;
            this.firstFrames = connections.stream().mapToLong(c -> c.firstFrame).toArray();
            this.released = spill == null ? 0 : spill.size();
            this.releasedEarly = spill == null ? 0 : spill.early();
            this.resumedFlows = spill == null ? 0 : spill.resumedFlows();
            this.connections = connections;
            this.prefix = prefix;
            this.name = name;
            this.frames = empty ? 0 : session.frames;
            this.roceFrames = empty ? 0 : session.roceFrames;
            this.connectionCount = empty ? 0 : connections.size() + (int) released;
            this.cutFrames = empty ? 0 : session.cutFrames;
            this.otherLinkFrames = empty ? 0 : session.otherLinkFrames;
            this.oversizedFrames = session.oversizedFrames;
            this.oversized = session.oversized;
            this.evidence = !empty && session.evidence();
            this.elapsedNs = session.elapsedNs;
            this.problem = problem;
            this.outOfScope = List.copyOf(session.outOfScope.cases(prefix, name));
        }

        /** The number of cases {@link #forEachCase} gives. */
        public int caseCount() {
            int n = outOfScope.size();
            for (final Connection c : connections) {
                n += results.count(c);
            }
            for (int r = 0; spill != null && r < spill.size(); r++) {
                n += spill.caseCount(r);
            }
            return n;
        }

        /**
         * Builds the cases of every connection, in report order, and hands them to {@code sink} one connection at a
         * time; {@code violations} receives one line per failing case. With {@code release}, each connection is
         * forgotten once its cases are built (the result can then be reported only once).
         */
        public void forEachCase(final Consumer<CaseResult> sink, final List<String> violations,
                                final boolean release) {
            int r = 0;
            for (int i = 0; i < connections.size(); i++) {
                r = releasedBefore(i, r, (first, id, entry) -> {
                    entry.cases().forEach(sink);
                    violations.addAll(entry.violations());
                });
                final Connection c = connections.get(i);
                if (c == null) {
                    throw new IllegalStateException("the cases of " + name + " were already reported");
                }
                for (final CaseResult result : results.of(c, casePrefix(c), violations)) {
                    sink.accept(result);
                }
                if (release) {
                    connections.set(i, null);
                }
            }
            releasedBefore(connections.size(), r, (first, id, entry) -> {
                entry.cases().forEach(sink);
                violations.addAll(entry.violations());
            });
            if (release && spill != null) {
                spill.close();
            }
            for (final CaseResult result : outOfScope) {
                sink.accept(result);
            }
        }

        /** Receives one connection's cases ({@link #forEachConnection}). */
        @FunctionalInterface
        public interface ConnectionCases {
            /**
             * @param firstFrame the number of the connection's first frame in the capture
             * @param id         its ID ({@code C1}, ...)
             * @param cases      its cases, in report order (its summary last)
             */
            void accept(long firstFrame, String id, List<CaseResult> cases);
        }

        /**
         * As {@link #forEachCase} with {@code release}, one connection at a time with its first frame and ID; the
         * cases of the frames outside the scope are {@link #outOfScopeCases()}.
         */
        public void forEachConnection(final ConnectionCases sink) {
            final List<String> ignored = new ArrayList<>();
            int r = 0;
            for (int i = 0; i < connections.size(); i++) {
                r = releasedBefore(i, r, (first, id, entry) -> sink.accept(first, id, entry.cases()));
                final Connection c = connections.get(i);
                if (c == null) {
                    throw new IllegalStateException("the cases of " + name + " were already reported");
                }
                sink.accept(c.firstFrame, c.id, results.of(c, casePrefix(c), ignored));
                connections.set(i, null);
            }
            releasedBefore(connections.size(), r, (first, id, entry) -> sink.accept(first, id, entry.cases()));
            if (spill != null) {
                spill.close();
            }
        }

        /**
         * Hands on the released connections (from the {@code r}th in order of first frame) that come before the
         * {@code i}th held one (every one left when {@code i} is past the last), each with its ID: C and its rank
         * among all the capture's connections. Returns the next released connection's index.
         */
        private int releasedBefore(final int i, final int r, final Released to) {
            int next = r;
            while (spill != null && next < spill.size() && (i >= connections.size()
                || spill.firstFrame(next) < firstFrames[i])) {
                final String id = "C" + (i + next + 1);
                to.accept(spill.firstFrame(next), id, spill.read(next, id));
                next++;
            }
            return next;
        }

        /** Receives a released connection's spilled cases. */
        @FunctionalInterface
        private interface Released {
            void accept(long firstFrame, String id, ReleasedCases.Entry entry);
        }

        /** The NOT_APPLICABLE cases of the frames outside MetaRoCE's scope, one per kind. */
        public List<CaseResult> outOfScopeCases() {
            return outOfScope;
        }

        private String casePrefix(final Connection c) {
            return prefix + (c.evidenceCase != null ? c.evidenceCase + "/" : "");
        }
    }

    /** Told how far the reading of a file got: about every 64 Ki records, and at its end. */
    @FunctionalInterface
    public interface Progress {
        void update(long bytes, long size, long frames);
    }

    private final Specification spec;
    private final Parameters parameters;
    private final Mode mode;
    private final boolean complete;
    /** When connections are released before the capture's end: -1 the window from the parameters, 0 never. */
    private long releaseWindowNs = -1;
    /** The flows one analysis holds at most (its shards share them), 0 from the heap. */
    private long maxFlows;

    /**
     * @param spec     the specification (rule levels and roles, parameter ranges)
     * @param profile  the device profile, or null for the defaults of Appendix B
     * @param mode     the transport version the checks assume
     * @param complete the captures hold every frame both ends sent, once, from each connection's start
     */
    public Analysis(final Specification spec, final DeviceProfile profile, final Mode mode, final boolean complete) {
        this.spec = spec;
        this.parameters = new Parameters(spec, profile);
        this.mode = mode;
        this.complete = complete;
    }

    /**
     * Sets when connections are released before the capture's end (issue 12): after {@code windowNs} of capture time
     * idle (-1: the window the parameters give, {@link Releases#window}; 0: never, every connection held to the end,
     * the cap too), and beyond {@code maxFlows} flows held (0: from the heap, {@link #flowsForHeap}).
     */
    public Analysis releasing(final long windowNs, final long maxFlows) {
        this.releaseWindowNs = windowNs;
        this.maxFlows = maxFlows;
        return this;
    }

    /** The window in effect ({@link #releasing}), 0 when connections are held to the end. */
    public long releaseWindowNs() {
        return releaseWindowNs < 0 ? Releases.window(parameters) : releaseWindowNs;
    }

    /** The flows held at once with a heap of {@code maxHeap} bytes: a quarter of it at 4 KiB a flow, at least 1,024. */
    public static long flowsForHeap(final long maxHeap) {
        return Math.max(1024, maxHeap / 4 / 4096);
    }

    private Releases.Policy policy() {
        if (releaseWindowNs == 0) {
            return Releases.Policy.NEVER;
        }
        final long flows = maxFlows > 0 ? maxFlows : flowsForHeap(Runtime.getRuntime().maxMemory());
        // one cap for the shards together, each holding its part (Releases): one group of hosts can be one shard's
        // whole load
        return new Releases.Policy(releaseWindowNs(), (int) Math.min(Integer.MAX_VALUE - 1, Math.max(64, flows)));
    }

    /** The parameters in effect. */
    public Parameters parameters() {
        return parameters;
    }

    /**
     * Analyses one file. A file that cannot be read to its end is analysed up to the damage and named in
     * {@link FileResult#problem}; nothing is thrown for bad input.
     *
     * @param path    the capture
     * @param name    the capture as given (reports name it so)
     * @param prefix  prepended to every case ID ({@code ""}, or the file name and a slash when several are analysed)
     * @param workers where reading and ICRC computation run ahead of the analysis, or null to read on this thread
     * @param progress told how far the reading got, or null
     */
    public FileResult analyze(final Path path, final String name, final String prefix, final ExecutorService workers,
                              final Progress progress) {
        return analyze(path, name, prefix, workers, 1, progress, null);
    }

    /**
     * As {@link #analyze(Path, String, String, ExecutorService, Progress)}, judging only the frames of one shard of
     * the capture ({@link Partition}; null: all of them). Connection IDs are numbered within the shard.
     */
    public FileResult analyze(final Path path, final String name, final String prefix, final ExecutorService workers,
                              final Progress progress, final Partition partition) {
        return analyze(path, name, prefix, workers, 1, progress, partition);
    }

    /**
     * {@link #analyze(Path, String, String, ExecutorService, Progress)} with the capture's groups of hosts spread over
     * {@code shards} threads of {@code workers} ({@link Shards}: the same findings as on one thread) when it can be
     * partitioned so, else read ahead on {@code workers} and analysed on the calling thread.
     */
    public FileResult analyze(final Path path, final String name, final String prefix, final ExecutorService workers,
                              final int shards, final Progress progress) {
        return analyze(path, name, prefix, workers, shards, progress, null);
    }

    private FileResult analyze(final Path path, final String name, final String prefix, final ExecutorService workers,
                               final int shards, final Progress progress, final Partition partition) {
        final Session.Mode sessionMode = Session.Mode.valueOf(mode.name());
        Session session = null;
        List<Connection> connections = null;
        String problem = null;
        final ReleasedCases spill = new ReleasedCases();
        if (partition == null && workers != null && shards > 1 && !Files.isDirectory(path)) {
            try {
                final Releases.Policy sharedOut = policy();
                final Shards.Result sharded = Shards.run(path, shards, workers, () -> {
                    final Session shard = new Session(path, name, Session.judge(complete, false, parameters),
                        parameters, sessionMode);
                    shard.releasing(sharedOut, Releases.spilling(spill, spec, parameters, shard::origin, prefix));
                    return shard;
                }, progress);
                if (sharded != null) {
                    session = sharded.session();
                    connections = sharded.connections();
                    problem = sharded.failure() == null ? null : problem(sharded.failure());
                }
            } catch (IOException e) {
                session = null; // not readable from the start: the analysis on one thread below says why
            }
        }
        if (session == null) {
            session = new Session(path, name, Session.judge(complete, false, parameters), parameters, sessionMode);
            session.progress = progress;
            session.partition = partition;
            if (spill.size() > 0) {
                spill.clear(); // the shards' work dropped: the capture is analysed again from its start
            }
            session.releasing(policy(), Releases.spilling(spill, spec, parameters, session::origin, prefix));
            if (Files.isDirectory(path)) {
                problem = "is a directory";
            } else {
                try (CaptureReader reader = workers == null ? CaptureReader.open(path)
                    : new PrefetchReader(CaptureReader.open(path), workers)) {
                    session.run(reader);
                } catch (IOException e) {
                    problem = problem(e);
                }
            }
            connections = session.finish();
        }
        final Results results = new Results(spec, parameters, session.origin());
        String currentCase = null;
        int number = 0;
        final List<Connection> ordered = new ArrayList<>(connections);
        if (!session.evidence()) {
            ordered.sort(Comparator.comparingLong(c -> c.firstFrame));
        }
        spill.sort();
        int released = 0;
        for (final Connection c : ordered) {
            if (c.evidenceCase != null && !c.evidenceCase.equals(currentCase)) {
                currentCase = c.evidenceCase;
                number = 0;
            }
            // numbered among every connection of the capture, the released ones included
            while (released < spill.size() && spill.firstFrame(released) < c.firstFrame) {
                released++;
                number++;
            }
            c.id = "C" + ++number;
        }
        final boolean empty = problem != null && connections.isEmpty() && session.frames == 0 && spill.size() == 0;
        return new FileResult(results, ordered, prefix, name, session, problem, empty, spill);
    }

    /** Why a capture could not be read to its end, as reports say it. */
    private static String problem(final IOException e) {
        if (e instanceof CaptureFormatException format) {
            return "byte " + format.byteOffset() + " (record " + format.recordNumber() + "): " + format.reason();
        }
        if (e instanceof NoSuchFileException) {
            return "no such file";
        }
        if (e instanceof AccessDeniedException) {
            return "permission denied";
        }
        return e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
    }
}
