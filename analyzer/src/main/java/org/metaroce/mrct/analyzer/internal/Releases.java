package org.metaroce.mrct.analyzer.internal;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.function.LongSupplier;
import org.metaroce.mrct.harness.spec.Specification;

/**
 * Releases connections before the capture's end, so that the heap of an analysis does not grow with the connections
 * of its capture: a connection whose last frame is older, in capture time, than the {@linkplain #window window} is
 * judged then as at the capture's end (its open gaps closed, its spraying summed up), its cases built and spilled
 * ({@link ReleasedCases}) and its state forgotten. A frame of its QP seen later starts a new connection, a segment
 * marked {@link Connection#resumed}: judged like a connection first seen mid-capture.
 *
 * <p>Whether a connection is released before a frame depends only on capture time (its last frame against the
 * frame's timestamp), never on when a sweep ran: before a frame is given to its flow, a stale flow found for it is
 * released first, and so are the stale flows of its host pair before an answer is paired. So the findings are the same
 * on one thread and on shards. A connection an indication still owes a CNP to ({@link Cnps}) is kept until that is
 * judged.
 *
 * <p>The cap: when a session holds more flows than its part of {@code maxFlows} (all of it on one thread; on shards
 * a part in proportion to the hosts of its groups, {@link PrefetchReader#partOf}, fixed where the dispatcher handed the
 * batch on), it sweeps its idle connections, then releases the least recently seen quarter of its flows before their
 * window ran out, marked {@link Connection#releasedEarly} (what their missing tail could change is inconclusive, never
 * a violation). This is the hard bound when very many connections are all active within the window. It depends on
 * the session's own frames and its part alone, never on what other threads hold at that moment: the same capture and
 * thread count give the same report every run, and a capture that is one group of hosts (one shard's whole part) the
 * same on any number of threads; with several groups, the parts, and so which connections are released early, follow
 * how the groups were spread over the shards.
 */
final class Releases {
    /**
     * When connections are released: after {@code windowNs} idle (0: never), and above {@code maxFlows} held (by one
     * session, or by the shards of one capture together, each holding its part).
     */
    record Policy(long windowNs, int maxFlows) {
        /** Nothing released before the capture's end (the analysis before issue 12). */
        static final Policy NEVER = new Policy(0, Integer.MAX_VALUE);

        boolean releases() {
            return windowNs > 0 || maxFlows < Integer.MAX_VALUE;
        }
    }

    /** The longest RNR timer of Table D-2 (code 0): 655.36 ms. */
    static final long LONGEST_RNR_TIMER_NS = 655_360_000L;

    /**
     * The longest time any check may still need a connection's state after its last frame: a requester may be silent
     * for its retransmission timeout once per retry before it sends una again ({@code (retry_cnt + 1) x rto_high_ns}),
     * then for an RNR wait once per RNR retry ({@code (rnr_retry + 1) x} the longest RNR timer, since the responder
     * chooses the code), and a congestion indication is answered within {@code cnp_delay_max_ns}, judged against the
     * CNP holding time ({@code cnp_interval_ns}) and the DCQCN cut over up to two timer periods. Each at its lenient
     * end: the declared value with a profile, the top of Table B-1's range without. 13.3 s without a profile.
     */
    static long window(final Parameters p) {
        final long rto = (p.lenientMax("retry_cnt") + 1) * p.lenientMax("rto_high_ns");
        final long rnr = (Math.min(7, p.lenientMax("rnr_retry")) + 1) * LONGEST_RNR_TIMER_NS;
        final long cnp = p.lenientMax("cnp_delay_max_ns") + p.lenientMax("cnp_interval_ns");
        final long dcqcn = 2 * Math.max(p.lenientMax("dcqcn_alpha_timer_ns"), p.lenientMax("dcqcn_rate_timer_ns"));
        return rto + rnr + cnp + dcqcn;
    }

    private final Policy policy;
    private final FlowTable flows;
    private final Cnps cnps;
    private final Context cx;
    private final Sink sink;
    private final LongSet releasedKeys = new LongSet();
    private long nextSweepNs = Long.MIN_VALUE;

    /** Where released connections go: their cases built and spilled. */
    interface Sink {
        void release(Connection c);

        /** A new flow resumes the QP of a released one. */
        default void resumed() {
        }
    }

    Releases(final Policy policy, final FlowTable flows, final Cnps cnps, final Context cx, final Sink sink) {
        this.policy = policy;
        this.flows = flows;
        this.cnps = cnps;
        this.cx = cx;
        this.sink = sink;
    }

    /** The idle time after which a connection is released (0: never). */
    long windowNs() {
        return policy.windowNs();
    }

    /** A sink building a connection's cases with a placeholder ID into {@code spill}. */
    static Sink spilling(final ReleasedCases spill, final Specification spec, final Parameters parameters,
                         final LongSupplier origin, final String prefix) {
        return new Sink() {
            @Override
            public void release(final Connection c) {
                c.id = ReleasedCases.placeholder(c.firstFrame);
                final List<String> violations = new ArrayList<>();
                final var cases = new Results(spec, parameters, origin.getAsLong()).of(c, prefix, violations);
                spill.add(c.firstFrame, new ReleasedCases.Entry(cases, violations), c.releasedEarly);
            }

            @Override
            public void resumed() {
                spill.resumed();
            }
        };
    }

    /** The cap on the flows held, of which a shard holds its part. */
    long maxFlows() {
        return policy.maxFlows();
    }

    /**
     * Before a frame at {@code ts}: the sweep of idle connections when due; above {@code part} flows held (this
     * session's part of the cap), the idle ones first, then, when that did not free an eighth of the part, the least
     * recently seen quarter.
     */
    void beforeFrame(final long ts, final long part) {
        if (ts >= nextSweepNs) {
            if (nextSweepNs != Long.MIN_VALUE && policy.windowNs() > 0) {
                sweep(ts);
            }
            nextSweepNs = policy.windowNs() > 0 ? ts + Math.max(1, policy.windowNs() / 4) : Long.MAX_VALUE;
        }
        if (flows.flows().size() > part) {
            if (policy.windowNs() > 0) {
                sweep(ts);
            }
            if (flows.flows().size() > part - part / 8) {
                cap(ts, part);
            }
        }
    }

    /** True when {@code flow}'s connection has been idle longer than the window at {@code ts}. */
    boolean stale(final Flow flow, final long ts) {
        return policy.windowNs() > 0 && ts - flow.connection.lastNs > policy.windowNs();
    }

    /** Releases {@code flow}'s connection, found stale by a frame of its QP. */
    void releaseStale(final Flow flow) {
        final List<Flow> gone = new ArrayList<>(2);
        release(flow.connection, false, gone);
        removed(gone);
    }

    /** Releases the stale connections of {@code pair} (before an answer is paired with one of its flows). */
    void releaseStale(final HostPair pair, final long ts) {
        List<Flow> gone = null;
        for (final Flow flow : pair.flows) {
            if (!flow.connection.released && stale(flow, ts)) {
                gone = gone == null ? new ArrayList<>(2) : gone;
                release(flow.connection, false, gone);
            }
        }
        if (gone != null) {
            removed(gone);
        }
    }

    /**
     * Counts a new flow among those held; true when a flow of the same key as {@code flow} was released before:
     * {@code flow} resumes it.
     */
    boolean created(final Flow flow) {
        if (releasedKeys.isEmpty() || !releasedKeys.contains(key(flow))) {
            return false;
        }
        sink.resumed();
        return true;
    }

    private void sweep(final long ts) {
        final Set<Connection> owing = Collections.newSetFromMap(new IdentityHashMap<>());
        cnps.owing(owing);
        final List<Flow> gone = new ArrayList<>();
        for (final Flow flow : flows.flows()) {
            final Connection c = flow.connection;
            if (!c.released && stale(flow, ts) && !owing.contains(c)) {
                release(c, false, gone);
            }
        }
        if (!gone.isEmpty()) {
            removed(gone);
        }
    }

    private void cap(final long ts, final long part) {
        final Set<Connection> owing = Collections.newSetFromMap(new IdentityHashMap<>());
        cnps.owing(owing);
        final Set<Connection> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        final List<Connection> held = new ArrayList<>();
        for (final Flow flow : flows.flows()) {
            if (seen.add(flow.connection) && !owing.contains(flow.connection)) {
                held.add(flow.connection);
            }
        }
        held.sort(Comparator.<Connection>comparingLong(c -> c.lastNs).thenComparingLong(c -> c.firstFrame));
        int flowsHeld = flows.flows().size();
        final int target = flowsHeld - Math.max(1, flowsHeld / 4);
        final List<Flow> gone = new ArrayList<>();
        for (final Connection c : held) {
            if (flowsHeld <= target) {
                break;
            }
            flowsHeld -= c.flows.size();
            final boolean early = policy.windowNs() <= 0 || !stale(c.flows.get(0), ts);
            if (early) {
                c.note("released before the end of the capture with " + flows.flows().size() + " flows held, more"
                    + " than the " + part + " its part of the analysis may hold to bound the heap (of "
                    + policy.maxFlows() + " in all), " + Text.ago(ts - c.lastNs)
                    + " after its last frame" + (policy.windowNs() > 0 ? " (window " + Text.ago(policy.windowNs())
                    + ")" : "") + ": what its later frames could change is inconclusive; they start a new segment");
            }
            release(c, early, gone);
        }
        removed(gone);
    }

    private void removed(final List<Flow> gone) {
        flows.removeReleased(gone);
    }

    private void release(final Connection c, final boolean early, final List<Flow> gone) {
        c.releasedEarly = early;
        // judged as at the capture's end (Session.finishCase)
        for (final Flow flow : c.flows) {
            flow.requests.finishGaps(cx);
        }
        c.spraySummary(cx);
        c.released = true;
        for (final Flow flow : c.flows) {
            releasedKeys.add(key(flow));
            gone.add(flow);
        }
        sink.release(c);
    }

    /** A flow's key (addresses, dqpn, the source MAC when both addresses are the same) as 64 bits. */
    private static long key(final Flow flow) {
        long h = flow.dqpn * 0x9E3779B97F4A7C15L;
        for (final byte b : flow.source) {
            h = (h ^ (b & 0xFF)) * 0xC2B2AE3D27D4EB4FL;
        }
        h = (h ^ 0x5A) * 0x9E3779B97F4A7C15L;
        for (final byte b : flow.destination) {
            h = (h ^ (b & 0xFF)) * 0xC2B2AE3D27D4EB4FL;
        }
        if (Arrays.equals(flow.source, flow.destination)) {
            h = (h ^ flow.sourceMac) * 0x9E3779B97F4A7C15L;
        }
        return h ^ (h >>> 31);
    }

    /** A set of longs, open addressing (8 to 16 bytes per key released). */
    private static final class LongSet {
        private long[] keys = new long[16];
        private boolean zero;
        private int size;

        void add(final long key) {
            if (key == 0) {
                zero = true;
                return;
            }
            int i = slot(keys, key);
            if (keys[i] == key) {
                return;
            }
            keys[i] = key;
            if (++size * 2 > keys.length) {
                final long[] old = keys;
                keys = new long[old.length * 2];
                for (final long k : old) {
                    if (k != 0) {
                        keys[slot(keys, k)] = k;
                    }
                }
            }
        }

        boolean isEmpty() {
            return size == 0 && !zero;
        }

        boolean contains(final long key) {
            return key == 0 ? zero : keys[slot(keys, key)] == key;
        }

        private static int slot(final long[] keys, final long key) {
            final int mask = keys.length - 1;
            int i = (int) (key ^ (key >>> 32)) * 0x9E3779B9 & mask;
            while (keys[i] != 0 && keys[i] != key) {
                i = (i + 1) & mask;
            }
            return i;
        }
    }
}
