package org.metaroce.mrct.socket;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.locks.LockSupport;
import org.metaroce.mrct.socket.link.FrameReceiver;
import org.metaroce.mrct.socket.link.Link;
import org.metaroce.mrct.socket.link.WallClock;
import org.metaroce.mrct.spi.AdapterException;
import org.metaroce.mrct.spi.CapturedFrame;
import org.metaroce.mrct.spi.DataPlane;

/**
 * The harness's data plane over a live {@link Link}, in real time: {@link #now()} is the wall clock in nanoseconds
 * since the epoch, the clock of the kernel's capture timestamps. Frames from the device wait in a queue filled by the
 * link's reader thread; {@link #poll} returns the next one stamped no later than the deadline, and returns null only
 * once the deadline has passed on the wall clock and the link has looked for frames after it (so "nothing came by
 * then" is known, not guessed).
 *
 * <p>It also keeps the evidence honest, per case ({@link #evidenceProblem()}): frames the capture dropped, capture
 * timestamps that went backwards, and (where the link sees its own frames) frames the harness sent that never
 * appeared on the wire. Own frames seen on the wire are recognised by their bytes and never handed to the engine as
 * the device's.
 */
final class LiveDataPlane implements DataPlane, FrameReceiver {
    /** How late after a deadline the link must have looked before "nothing came" is believed. */
    static final long GRACE_NANOS = 20_000;
    /** How long a frame the harness sent may take to appear in its own capture. */
    private static final long ECHO_WAIT_NANOS = 200_000_000;

    private Link link;
    private final Object lock = new Object();
    private final ArrayDeque<CapturedFrame> inbox = new ArrayDeque<>();
    /** Frames sent in this case that the capture will see again, with how many copies are still to come. */
    private final Map<Bytes, Integer> unseen = new HashMap<>();
    /** Every frame sent in this case: what the capture shows of them is never the device's. */
    private final Set<Bytes> sent = new HashSet<>();
    private long swept;
    private long lastTimestamp = Long.MIN_VALUE;
    private String backwards;
    private long droppedAtStart;
    private int sentInCase;
    private int unseenCount;
    private long discardBefore = Long.MIN_VALUE;
    /**
     * The latest deadline by which {@link #poll} said that nothing came in this case (Long.MIN_VALUE: none yet), and
     * the device's frames the link handed over afterwards though they were stamped by it: how many, and the first.
     */
    private long nothingUntil = Long.MIN_VALUE;
    private int heldBack;
    private String firstHeldBack;
    private volatile Thread waiter;
    /** The sweep the waiter needs: an empty look after this wakes it (Long.MAX_VALUE: none). */
    private volatile long waitingFor = Long.MAX_VALUE;
    /** The reader's last look for frames (a frame taken or an empty sweep), and its recent pauses between looks. */
    private long lastLook = Long.MIN_VALUE;
    private final ArrayDeque<long[]> pauses = new ArrayDeque<>();
    /** A gap between two looks of the reader shorter than this is its ordinary polling. */
    static final long PAUSE_NOTED_NANOS = 50_000;
    /** Pauses remembered (the oldest are forgotten: a case asks about its own recent deadlines). */
    private static final int PAUSES_KEPT = 4096;

    /** The link is attached after it is opened (it needs this receiver to open). */
    void attach(final Link attached) {
        this.link = attached;
    }

    Link link() {
        return link;
    }

    @Override
    public long now() {
        return WallClock.nanos();
    }

    /** A frame's bytes as a map key (content equality). */
    private record Bytes(byte[] bytes, int hash) {
        Bytes(final byte[] bytes) {
            this(bytes, Arrays.hashCode(bytes));
        }

        @Override
        public boolean equals(final Object other) {
            return other instanceof Bytes that && hash == that.hash && Arrays.equals(bytes, that.bytes);
        }

        @Override
        public int hashCode() {
            return hash;
        }
    }

    @Override
    public void send(final byte[] frame) {
        final String problem = link.problem();
        if (problem != null) {
            throw new AdapterException(problem);
        }
        final byte[] copy = frame.clone();
        final Bytes key = new Bytes(copy);
        final boolean echoed = link.seesOwn(copy);
        synchronized (lock) {
            sent.add(key);
            if (echoed) {
                unseen.merge(key, 1, Integer::sum);
                unseenCount++;
                sentInCase++;
            }
        }
        try {
            link.send(copy);
        } catch (RuntimeException e) {
            if (echoed) {
                synchronized (lock) {
                    unseen.computeIfPresent(key, (k, n) -> n == 1 ? null : n - 1);
                    unseenCount--;
                    sentInCase--;
                }
            }
            throw e;
        }
    }

    @Override
    public CapturedFrame poll(final long deadlineNanos) {
        final Thread self = Thread.currentThread();
        try {
            while (true) {
                // announced before looking, so that news arriving between the look and the park still wakes it
                waitingFor = deadlineNanos > Long.MAX_VALUE - GRACE_NANOS ? Long.MAX_VALUE
                    : deadlineNanos + GRACE_NANOS;
                waiter = self;
                final long now = now();
                synchronized (lock) {
                    final CapturedFrame head = inbox.peekFirst();
                    if (head != null && head.timestampNanos() <= deadlineNanos) {
                        return inbox.pollFirst();
                    }
                    if (now > deadlineNanos && (head != null || swept > deadlineNanos + GRACE_NANOS)) {
                        nothingUntil = Math.max(nothingUntil, deadlineNanos);
                        return null;
                    }
                }
                final String problem = link.problem();
                if (problem != null) {
                    throw new AdapterException(problem);
                }
                // park until the reader has news: a frame, or a sweep past the deadline (not each empty poll, which
                // would wake this thread every few tens of microseconds for nothing); once the deadline and its grace
                // are past, the reader is asked to look at once (the engine waits for that sweep at every step of the
                // network in a requester case: its polling pause, ~70 us with the timer slack, was paid at each)
                if (now <= deadlineNanos) {
                    LockSupport.parkNanos(Math.max(1_000, Math.min(deadlineNanos - now, 1_000_000)));
                } else {
                    // through the grace (microseconds) on the CPU: a park that short oversleeps by tens
                    final long sweepFrom = deadlineNanos + GRACE_NANOS;
                    while (now() <= sweepFrom) {
                        Thread.onSpinWait();
                    }
                    link.lookNow();
                    LockSupport.parkNanos(1_000_000);
                }
                if (Thread.interrupted()) {
                    throw new AdapterException("interrupted while waiting for frames");
                }
            }
        } finally {
            waiter = null;
        }
    }

    @Override
    public void frame(final byte[] bytes, final long timestampNanos) {
        synchronized (lock) {
            looked(timestampNanos);
            final Bytes key = new Bytes(bytes);
            final Integer left = unseen.get(key);
            if (left != null) {
                if (left == 1) {
                    unseen.remove(key);
                } else {
                    unseen.put(key, left - 1);
                }
                unseenCount--;
                return;
            }
            if (sent.contains(key)) {
                return;
            }
            // the device's frames only: outgoing and incoming frames are stamped on different paths and CPUs
            if (lastTimestamp != Long.MIN_VALUE && timestampNanos < lastTimestamp && backwards == null) {
                backwards = "capture timestamps of the device's frames went backwards by "
                    + (lastTimestamp - timestampNanos) + " ns";
            }
            lastTimestamp = Math.max(lastTimestamp, timestampNanos);
            if (timestampNanos < discardBefore) {
                return;
            }
            if (timestampNanos <= nothingUntil) {
                heldBack(timestampNanos);
            }
            inbox.addLast(new CapturedFrame(bytes, timestampNanos));
        }
        final Thread waiting = waiter;
        if (waiting != null) {
            LockSupport.unpark(waiting);
        }
    }

    @Override
    public void idle(final long sweptAtNanos) {
        synchronized (lock) {
            swept = sweptAtNanos;
            looked(sweptAtNanos);
        }
        final Thread waiting = waiter;
        if (waiting != null && sweptAtNanos > waitingFor) {
            LockSupport.unpark(waiting);
        }
    }

    /**
     * A frame of the device stamped at {@code stamp} came after {@link #poll} had said that nothing came by a deadline
     * at or after it (lock held): the link's reader had looked past the deadline and found nothing, yet the frame was
     * on the wire before it. Over a veth pair the kernel stamps a frame when the sending side queues it and the capture
     * sees it only once the receiving side's softirq has taken it from that queue; on a loaded host that was measured
     * at up to 141 us after a sweep past the stamp (2026-12-03, two CPU hogs), beyond the {@link #GRACE_NANOS} the poll
     * allows. The expectation that found nothing may then have judged a frame that was there: the evidence is
     * incomplete ({@link #evidenceProblem}).
     */
    private void heldBack(final long stamp) {
        if (heldBack++ == 0) {
            firstHeldBack = "a frame of the device stamped " + (nothingUntil - stamp) / 1000
                + " us before a deadline by which the capture had shown nothing was handed over "
                + Math.max(0, now() - stamp) / 1000 + " us after its timestamp";
        }
    }

    /** The reader looked for frames at {@code time}: a long gap since its previous look is remembered (lock held). */
    private void looked(final long time) {
        if (link == null || !link.stampsWhenRead()) {
            return;
        }
        if (lastLook != Long.MIN_VALUE && time - lastLook >= PAUSE_NOTED_NANOS) {
            if (pauses.size() == PAUSES_KEPT) {
                pauses.pollFirst();
            }
            pauses.addLast(new long[] {lastLook, time});
        }
        lastLook = Math.max(lastLook, time);
    }

    /**
     * The longest pause of the reader spanning {@code timeNanos} (0 when none, or when the link's timestamps are taken
     * on arrival): a frame that arrived then was stamped up to that much late.
     */
    @Override
    public long receivePauseAt(final long timeNanos) {
        synchronized (lock) {
            // the pauses are the gaps between successive looks: disjoint and in order, so at most one spans the time,
            // and the search goes back from the newest only as far as the time (asked per frame received: the whole
            // list, thousands of entries on a loaded host, cost more than the frame's own checks)
            final java.util.Iterator<long[]> newestFirst = pauses.descendingIterator();
            while (newestFirst.hasNext()) {
                final long[] pause = newestFirst.next();
                if (pause[1] < timeNanos) {
                    return 0;
                }
                if (pause[0] < timeNanos) {
                    return pause[1] - pause[0];
                }
            }
            return 0;
        }
    }

    /** Starts a case's bookkeeping: no frame from before, no problem yet. */
    void beginCase() {
        final long dropped = link.dropped();
        synchronized (lock) {
            inbox.clear();
            unseen.clear();
            sent.clear();
            unseenCount = 0;
            backwards = null;
            sentInCase = 0;
            nothingUntil = Long.MIN_VALUE;
            heldBack = 0;
            firstHeldBack = null;
            droppedAtStart = dropped;
        }
    }

    /** How long {@link #fence} waits for the reader's sweep before it settles for the frames read so far. */
    static final long FENCE_WAIT_NANOS = 1_000_000_000L;

    /**
     * Fences a case off from the frames of the cases before it, once the device's reset was answered at {@code time}:
     * waits until the link's reader has looked for frames at a moment after {@code time} and found none (a sweep, which
     * it reports on its own, within {@link #FENCE_WAIT_NANOS}), then forgets every frame stamped before that sweep.
     * Whatever the device sent before its reset was waiting to be read by then, however late the reader took it (a
     * link that stamps frames when it reads them gives such a frame a timestamp after {@code time}); a frame stamped
     * after the sweep reached the link after the reset and is the new case's.
     *
     * @return false when no sweep came in time (everything read so far is forgotten all the same)
     */
    boolean fence(final long time) {
        discardBefore(time);
        final Thread self = Thread.currentThread();
        final long until = System.nanoTime() + FENCE_WAIT_NANOS;
        try {
            while (true) {
                waitingFor = time;
                waiter = self;
                final long sweep;
                synchronized (lock) {
                    sweep = swept;
                }
                if (sweep > time) {
                    discardBefore(sweep);
                    return true;
                }
                final String problem = link.problem();
                if (problem != null) {
                    throw new AdapterException(problem);
                }
                final long left = until - System.nanoTime();
                if (left <= 0) {
                    discardBefore(now());
                    return false;
                }
                link.lookNow();
                LockSupport.parkNanos(Math.min(left, 1_000_000));
                if (Thread.interrupted()) {
                    throw new AdapterException("interrupted while waiting for the link to be read");
                }
            }
        } finally {
            waiter = null;
        }
    }

    /** Forgets every frame stamped before {@code time} (what the device sent before it was reset). */
    void discardBefore(final long time) {
        synchronized (lock) {
            discardBefore = time;
            inbox.removeIf(frame -> frame.timestampNanos() < time);
        }
    }

    /**
     * How long after the case the link's reader must look again before the case's evidence is judged, when the case
     * concluded that nothing came by some deadline: a frame the kernel held back past that deadline then shows.
     */
    static final long SETTLE_NANOS = 2_000_000;
    /** How long {@link #evidenceProblem} waits for that look at most (a reader that never looks: a test's). */
    private static final long SETTLE_WAIT_NANOS = 50_000_000;

    /**
     * Waits until the reader has looked for frames after {@code time} (a sweep past it) or {@code waitNanos} passed.
     */
    private void awaitSweepAfter(final long time, final long waitNanos) {
        final long until = System.nanoTime() + waitNanos;
        while (System.nanoTime() < until && link.problem() == null) {
            synchronized (lock) {
                if (swept > time) {
                    return;
                }
            }
            if (now() > time) {
                link.lookNow();
            }
            LockSupport.parkNanos(200_000);
        }
    }

    /** Null when the case's evidence is complete, else why not. */
    String evidenceProblem() {
        final boolean saidNothing;
        synchronized (lock) {
            saidNothing = nothingUntil != Long.MIN_VALUE;
        }
        if (saidNothing) {
            awaitSweepAfter(now() + SETTLE_NANOS, SETTLE_WAIT_NANOS);
        }
        final long until = System.nanoTime() + ECHO_WAIT_NANOS;
        while (true) {
            synchronized (lock) {
                if (unseen.isEmpty()) {
                    break;
                }
            }
            if (System.nanoTime() > until) {
                break;
            }
            LockSupport.parkNanos(1_000_000);
        }
        final long dropped = link instanceof org.metaroce.mrct.socket.link.PcapLink pcap ? pcap.droppedNow()
            : link.dropped();
        final List<String> problems = new ArrayList<>();
        synchronized (lock) {
            if (dropped > droppedAtStart) {
                problems.add("the capture on " + link.describe() + " dropped " + (dropped - droppedAtStart)
                    + " frame(s) during the case (" + link.whenDropping() + ")");
            }
            if (backwards != null) {
                problems.add(backwards);
            }
            if (heldBack > 0) {
                problems.add("the capture on " + link.describe() + " handed over " + heldBack + " frame(s) of the "
                    + "device only after the harness had concluded that nothing came by then (" + firstHeldBack
                    + "): an expectation may have missed a frame that was on the wire");
            }
            if (unseenCount > 0) {
                problems.add(unseenCount + " of the " + sentInCase + " frame(s) the harness sent never appeared "
                    + "on the wire (" + link.describe() + ")");
            }
        }
        return problems.isEmpty() ? null : String.join("; ", problems);
    }
}
