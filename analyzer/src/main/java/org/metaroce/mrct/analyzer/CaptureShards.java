package org.metaroce.mrct.analyzer;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import org.metaroce.mrct.analyzer.internal.Analysis;
import org.metaroce.mrct.analyzer.internal.Partition;
import org.metaroce.mrct.harness.result.CaseResult;
import org.metaroce.mrct.harness.result.Verdict;
import org.metaroce.mrct.harness.spec.Specification;

/**
 * One large capture analysed in several shards, apart (on several machines: the {@code spark} module), with the
 * findings of {@link CaptureAnalyzer#analyzeCapture} over the whole capture.
 *
 * <pre>{@code
 * CaptureShards.Plan plan = CaptureShards.plan(spec, options, path, 8);            // one pass: the units of hosts
 * List<CaptureShards.Shard> shards = ...;                                           // for s < plan.shards(), anywhere:
 *     CaptureShards.analyze(spec, options, path, name, prefix, plan, s);
 * CaptureAnalysis whole = CaptureShards.merge(shards, prefix);                       // as analyzeCapture gives it
 * }</pre>
 *
 * <p>A shard holds whole <em>units</em>: sets of hosts joined by the capture's RoCE traffic (the connected components
 * of its address pairs). No check's state crosses a unit: a connection's flows go between the same two hosts, and the
 * widest CNP scope the checks keep, the notification point's port, is one host. Each shard reads the whole capture
 * (record numbers, first and last timestamps and damage are the whole capture's) and judges its units' frames in
 * capture order; shard 0 also judges the frames without addresses and counts those outside MetaRoCE's scope. The
 * merge numbers the connections of all shards by first frame, as the whole analysis does. An mrct evidence file is
 * not split (shard 0 analyses it whole). A capture of one unit (one host talking to all others, e.g.) has one shard.
 */
public final class CaptureShards {
    /**
     * How a capture's hosts are dealt to shards.
     *
     * @param shards  the number of shards (at least 1)
     * @param units   the number of units found
     * @param hosts   the hosts' keys (an analyzer-internal digest of the address)
     * @param shardOf each host's shard
     */
    public record Plan(int shards, int units, long[] hosts, int[] shardOf) {
        public Plan {
            Objects.requireNonNull(hosts, "hosts");
            Objects.requireNonNull(shardOf, "shardOf");
            if (hosts.length != shardOf.length || shards < 1) {
                throw new IllegalArgumentException("a plan needs one shard per host and at least one shard");
            }
        }
    }

    /**
     * One connection of a shard: its first frame in the capture, its ID within the shard and its cases.
     *
     * @param firstFrame the record number of its first frame
     * @param id         its ID within the shard ({@code C1}, ...): the merge renumbers
     * @param cases      its cases in report order, the summary last
     */
    public record ConnectionCases(long firstFrame, String id, List<CaseResult> cases) {
        public ConnectionCases {
            cases = List.copyOf(cases);
        }
    }

    /**
     * What one shard found.
     *
     * @param file        the capture's counts as the shard saw them: frames, damage and oversized records are the
     *                    whole capture's; RoCE frames, connections, cut and other frames the shard's own
     * @param connections its connections, in order of first frame
     * @param outOfScope  the cases of the frames outside MetaRoCE's scope (shard 0 only)
     */
    public record Shard(FileOutcome file, List<ConnectionCases> connections, List<CaseResult> outOfScope) {
        public Shard {
            connections = List.copyOf(connections);
            outOfScope = List.copyOf(outOfScope);
        }
    }

    private CaptureShards() {
    }

    /**
     * Reads the capture once and deals its units of hosts to at most {@code maxShards} shards (the units with the
     * most frames first, each to the shard with the fewest so far).
     */
    public static Plan plan(final Specification spec, final CaptureAnalyzer.Options options, final Path capture,
                            final int maxShards) {
        final Partition recorder = Partition.recorder();
        analysis(spec, options).analyze(capture, capture.toString(), "", null, null, recorder);
        final long[][] plan = recorder.plan(Math.max(1, maxShards));
        final int[] shardOf = new int[plan[1].length];
        for (int i = 0; i < shardOf.length; i++) {
            shardOf[i] = (int) plan[1][i];
        }
        return new Plan((int) plan[2][0], (int) plan[2][1], plan[0], shardOf);
    }

    /**
     * Analyses shard {@code shard} of {@code plan} on the calling thread.
     *
     * @param name   how reports name the capture
     * @param prefix prepended to its case IDs ({@link CaptureAnalyzer#casePrefix})
     */
    public static Shard analyze(final Specification spec, final CaptureAnalyzer.Options options, final Path capture,
                                final String name, final String prefix, final Plan plan, final int shard) {
        if (shard < 0 || shard >= plan.shards()) {
            throw new IllegalArgumentException("shard " + shard + " of " + plan.shards());
        }
        final Analysis.FileResult r = analysis(spec, options).analyze(capture, name, prefix, null, null,
            Partition.shard(shard, plan.hosts(), plan.shardOf()));
        final List<ConnectionCases> connections = new ArrayList<>();
        r.forEachConnection((first, id, cases) -> connections.add(new ConnectionCases(first, id, cases)));
        return new Shard(new FileOutcome(r.name, r.frames, r.roceFrames, r.connectionCount, r.cutFrames,
            r.otherLinkFrames, r.evidence, r.elapsedNs, r.problem, r.oversizedFrames, r.oversized, r.released,
            r.releasedEarly, r.resumedFlows), connections,
            r.outOfScopeCases());
    }

    /**
     * The analysis of the whole capture from its shards (all of them, any order of shards): what
     * {@link CaptureAnalyzer#analyzeCapture} gives, its elapsed time the longest shard's.
     */
    public static CaptureAnalysis merge(final List<Shard> shards, final String prefix) {
        if (shards.isEmpty()) {
            throw new IllegalArgumentException("no shard");
        }
        final FileOutcome first = shards.get(0).file();
        long roce = 0;
        long cut = 0;
        long other = 0;
        long elapsed = 0;
        int connectionCount = 0;
        int withConnections = 0;
        long released = 0;
        long early = 0;
        long resumed = 0;
        final List<ConnectionCases> all = new ArrayList<>();
        final List<CaseResult> outOfScope = new ArrayList<>();
        for (final Shard shard : shards) {
            final FileOutcome f = shard.file();
            roce += f.roceFrames();
            cut += f.cutFrames();
            other += f.otherLinkFrames();
            elapsed = Math.max(elapsed, f.elapsedNs());
            connectionCount += f.connections();
            released += f.released();
            early += f.releasedEarly();
            resumed += f.resumedFlows();
            withConnections += shard.connections().isEmpty() ? 0 : 1;
            all.addAll(shard.connections());
            outOfScope.addAll(shard.outOfScope());
        }
        final boolean renumber = withConnections > 1 && !first.evidence();
        if (renumber) {
            all.sort(Comparator.comparingLong(ConnectionCases::firstFrame));
        }
        final List<CaseResult> cases = new ArrayList<>();
        final List<String> violations = new ArrayList<>();
        int number = 0;
        for (final ConnectionCases connection : all) {
            final String id = "C" + ++number;
            for (final CaseResult result : connection.cases()) {
                final CaseResult renamed = renumber ? renamed(result, prefix, connection.id(), id) : result;
                cases.add(renamed);
                if (!renamed.rules().isEmpty() && renamed.verdict() == Verdict.FAIL) {
                    violations.add(renamed.id() + ": " + renamed.reason());
                }
            }
        }
        cases.addAll(outOfScope);
        final FileOutcome file = new FileOutcome(first.name(), first.frames(), roce, connectionCount, cut, other,
            first.evidence(), elapsed, first.problem(), first.oversizedFrames(), first.oversized(), released, early,
            resumed);
        return new CaptureAnalysis(file, cases, violations);
    }

    /** A case of connection {@code from} as connection {@code to}: its ID, and its summary's first note. */
    private static CaseResult renamed(final CaseResult r, final String prefix, final String from, final String to) {
        final String head = prefix + from + "/";
        if (from.equals(to) || !r.id().startsWith(head)) {
            return r;
        }
        final List<String> notes = new ArrayList<>(r.notes());
        final String note = "connection " + from + ": ";
        for (int i = 0; i < notes.size(); i++) {
            if (notes.get(i).startsWith(note)) {
                notes.set(i, "connection " + to + ": " + notes.get(i).substring(note.length()));
                break;
            }
        }
        return new CaseResult(prefix + to + "/" + r.id().substring(head.length()), r.caseId(), r.title(), r.area(),
            r.rules(), r.level(), r.role(), r.file(), r.parameters(), r.verdict(), r.reason(), r.failure(),
            r.wallNanos(), r.deviceNanos(), r.attempts(), r.evidence(), notes, r.series(), r.control());
    }

    private static Analysis analysis(final Specification spec, final CaptureAnalyzer.Options options) {
        return new Analysis(spec, options.profile(), Analysis.Mode.valueOf(options.mode().name()),
            options.complete()).releasing(options.releaseWindowNs(), options.maxHeldFlows());
    }
}
