package org.metaroce.mrct.analyzer.internal;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * One reliable connection as the capture shows it: the flows of its two QPs (one until the other direction is found)
 * and, per check, what was observed and found. Two flows become one connection when their PSNs show that one side's
 * acknowledgements answer the other's requests ({@link HostPair}); until then each flow is a connection of its own,
 * and pairing merges them.
 *
 * <p>It also holds what both directions share: the transport version.
 */
final class Connection {
    /** The PMTU values a connection may use (Table B-1), one bit each in {@link #pmtuMask}. */
    static final int[] PMTUS = {256, 512, 1024, 2048, 4096};
    static final int ALL_PMTUS = (1 << PMTUS.length) - 1;
    /** Notes kept per connection. */
    private static final int NOTES = 30;

    /** The capture (file name as given) the connection was seen in. */
    final String capture;
    /** The mrct evidence case the frames belong to, or null. */
    final String evidenceCase;
    /** The number of the first frame of the connection in its capture. */
    final long firstFrame;
    final List<Flow> flows = new ArrayList<>(2);
    /**
     * Per check, 0 when it observed nothing, else 1 + the index of its count in {@link #counts}: a connection observes
     * a few of the checks, and 10^5 connections may be held at once (a long per check would be 480 bytes each).
     */
    private final byte[] slots = new byte[Check.COUNT];
    private long[] counts = new long[4];
    /** Sets of rules counted by {@link #observeRules} and not yet added to {@link #counts}, with how often each. */
    private final long[] ruleSets = new long[4];
    private final long[] ruleSetCounts = new long[4];
    private Check[] ruleChecks;

    static {
        if (Check.COUNT > Byte.MAX_VALUE) {
            throw new IllegalStateException("a byte slot per check holds at most 127 checks, not " + Check.COUNT);
        }
    }

    private int used;
    /** Per check, what it found; null until a check finds something (most connections: never). */
    private Tally[] tallies;
    final List<String> notes = new ArrayList<>();
    private int droppedNotes;

    /** 0 or 1 once the first frame that has one was seen, -1 before. */
    int tver = -1;
    /** Set when the two directions could not be told apart from other flows between the same hosts. */
    boolean ambiguous;
    /**
     * Set for a connection of an mrct evidence case whose run recorded it INCONCLUSIVE: the run found its own timing
     * of that case unfit to judge (the harness or the device late beyond its tolerance, or evidence incomplete), so a
     * violation found in its frames is no more certain here.
     */
    boolean recordedInconclusive;
    /** Assigned when the results are built: C1, C2, ... in order of first frame. */
    String id;
    /** The capture time of the connection's last frame (either direction). */
    long lastNs;
    /**
     * Set for a segment of a QP that was released before ({@link Releases}): it resumed after an idle time longer
     * than the window, and is judged like a connection first seen mid-capture.
     */
    boolean resumed;
    /**
     * Set for a connection released before its window ran out ({@link Releases}, the cap on the connections held):
     * what its missing tail could change is inconclusive.
     */
    boolean releasedEarly;
    /** Set once it was released: its cases built and its state forgotten. */
    boolean released;

    Connection(final String capture, final String evidenceCase, final long firstFrame) {
        this.capture = capture;
        this.evidenceCase = evidenceCase;
        this.firstFrame = firstFrame;
    }

    Tally tally(final Check check) {
        if (tallies == null) {
            tallies = new Tally[Check.COUNT];
        }
        Tally tally = tallies[check.ordinal()];
        if (tally == null) {
            tally = new Tally(check);
            tallies[check.ordinal()] = tally;
        }
        return tally;
    }

    /** What {@code check} found on the connection, or null. */
    Tally tallyOf(final Check check) {
        return tallies == null ? null : tallies[check.ordinal()];
    }

    /** The observations {@code check} counted on the connection. */
    long observed(final Check check) {
        flushRules();
        final int slot = slots[check.ordinal()];
        return slot == 0 ? 0 : counts[slot - 1];
    }

    /** Counts {@code n} more observations of {@code check} (small, to be inlined: it runs per frame and check). */
    void observe(final Check check, final long n) {
        final int slot = slots[check.ordinal()];
        if (slot != 0) {
            counts[slot - 1] += n;
        } else {
            firstObservation(check, n);
        }
    }

    /**
     * Counts one observation of each check of {@code rules}, bits of rules' ordinals, {@code checkOfRule} giving the
     * check of each bit (every bit of {@code rules} must have one; the same array on every call). Frames of one kind
     * are examined by the same rules, so the sets are counted as they come (a few per connection: requests,
     * acknowledgements, CNPs) and their checks' counts brought up to date when one is read.
     */
    void observeRules(final long rules, final Check[] checkOfRule) {
        final long[] sets = ruleSets;
        for (int i = 0; i < sets.length; i++) {
            if (sets[i] == rules && ruleSetCounts[i] != 0) {
                ruleSetCounts[i]++;
                return;
            }
        }
        ruleChecks = checkOfRule;
        // a set not counted yet: in a free entry, else in the one counted least (after bringing its checks up to date)
        int entry = 0;
        for (int i = 0; i < sets.length; i++) {
            if (ruleSetCounts[i] == 0) {
                entry = i;
                break;
            }
            if (ruleSetCounts[i] < ruleSetCounts[entry]) {
                entry = i;
            }
        }
        flushRules(entry);
        sets[entry] = rules;
        ruleSetCounts[entry] = 1;
    }

    /** Brings every check's count up to date with the sets of rules counted by {@link #observeRules}. */
    private void flushRules() {
        for (int i = 0; i < ruleSets.length; i++) {
            flushRules(i);
        }
    }

    private void flushRules(final int entry) {
        final long n = ruleSetCounts[entry];
        if (n == 0) {
            return;
        }
        ruleSetCounts[entry] = 0;
        for (long r = ruleSets[entry]; r != 0; r &= r - 1) {
            observe(ruleChecks[Long.numberOfTrailingZeros(r)], n);
        }
    }

    private void firstObservation(final Check check, final long n) {
        if (used == counts.length) {
            counts = Arrays.copyOf(counts, Math.min(Check.COUNT, used * 2));
        }
        counts[used] = n;
        slots[check.ordinal()] = (byte) ++used;
    }

    void note(final String text) {
        if (notes.size() < NOTES) {
            notes.add(text);
        } else {
            droppedNotes++;
        }
    }

    int droppedNotes() {
        return droppedNotes;
    }

    /** The candidates in {@code mask}, as text: {@code 1024} or {@code 256, 512 or 1024}. */
    static String describe(final int mask) {
        final StringBuilder text = new StringBuilder();
        final int n = Integer.bitCount(mask);
        int seen = 0;
        for (int i = 0; i < PMTUS.length; i++) {
            if ((mask & (1 << i)) != 0) {
                seen++;
                text.append(seen == 1 ? "" : seen == n ? " or " : ", ").append(PMTUS[i]);
            }
        }
        return text.toString();
    }

    /** The number of packets of a read or message of {@code length} bytes: max(1, ceil(length / pmtu)). */
    static long span(final long length, final int pmtu) {
        return Math.max(1, (length + pmtu - 1) / pmtu);
    }

    /** Absorbs another connection (the other direction, found later). */
    void merge(final Connection other) {
        for (final Flow flow : other.flows) {
            flows.add(flow);
            flow.connection = this;
        }
        for (final Check check : Check.values()) {
            final long n = other.observed(check);
            if (n != 0) {
                observe(check, n);
            }
            if (other.tallyOf(check) != null) {
                tally(check).merge(other.tallyOf(check));
            }
        }
        for (final String text : other.notes) {
            note(text);
        }
        droppedNotes += other.droppedNotes;
        if (tver < 0) {
            tver = other.tver;
        }
        ambiguous |= other.ambiguous;
        resumed |= other.resumed;
        lastNs = Math.max(lastNs, other.lastNs);
    }

    /** True when a finding resting on {@code basis} may come from the history or tail a segment lacks. */
    boolean segmentDoubts(final Basis basis) {
        return (resumed || releasedEarly) && (basis == Basis.CAPTURE_START || basis == Basis.CAPTURE_GAP);
    }

    /** Counts each judged flow's spraying (MR-SPRAY checks), once its frames are all seen. */
    void spraySummary(final Context cx) {
        for (final Flow flow : flows) {
            if (!flow.judged || flow.spray.packets() == 0) {
                continue;
            }
            if (flow.spray.sprayed()) {
                observe(Check.SPRAY_ON, flow.spray.packets());
                if (cx.parameters.declared() && !cx.parameters.claims("multipath-spraying")) {
                    observe(Check.SPRAY_OFF, flow.spray.packets());
                }
            } else {
                observe(Check.SPRAY_OFF, flow.spray.packets());
            }
        }
    }

    /** The earlier of the two flows' first frames decides the order of the sides. */
    Flow side(final int index) {
        return index < flows.size() ? flows.get(index) : null;
    }
}
