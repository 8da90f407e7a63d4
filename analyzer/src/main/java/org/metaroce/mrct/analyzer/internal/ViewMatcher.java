package org.metaroce.mrct.analyzer.internal;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.metaroce.mrct.analyzer.ViewFinding;
import org.metaroce.mrct.harness.result.CaseResult;
import org.metaroce.mrct.wire.DecodedFrame;
import org.metaroce.mrct.wire.Opcode;

/**
 * The matching of several captures' frames ({@link Views}), fed their {@link Sighting}s in timestamp order (captures
 * in index order at equal times, each capture's frames in record order): each frame grouped with its copies by flow,
 * PSN, opcode and ICRC within the window after its first sighting, each group judged when it closes, each flow's
 * case made at the end.
 *
 * <p>What one flow's case depends on: its own sightings, the other direction between the same two hosts (the clock
 * offset estimate) and, per capture, whether it was capturing (its first and last RoCEv2 timestamps). With captures
 * whose frames are in timestamp order, the window a sighting is matched in (the groups created no earlier than its
 * time minus the window) and a flow's views when a group closes (the captures among its frames up to the group's
 * creation plus the window) depend on nothing else, so matchers fed the sightings of different host pairs (each the
 * sightings of its pairs, in the same order) find what one matcher fed them all finds, flow for flow.
 */
public final class ViewMatcher {
    /** Findings kept per flow and kind, with their frames; the rest are counted. */
    static final int EXAMPLES = 20;
    /** Captures a flow is matched across at most. */
    static final int MAX_VIEWS = 64;
    /** Sightings kept per frame with their time and record number. */
    private static final int SIGHTINGS = 4;

    /** What the matching asks of the captures. */
    public interface Captures {
        /** How the reports name capture {@code capture}. */
        String name(int capture);

        /** True when capture {@code capture} was capturing over {@code [from, to]}. */
        boolean covers(int capture, long from, long to);
    }

    /**
     * One flow: its first sighting, and its case and findings when two captures or more saw it.
     *
     * @param number its place among the flows this matcher saw, by first sighting (1-based)
     * @param view   its {@code views/F<number>} case, or null when one capture only saw it
     */
    public record FlowOutcome(int number, long firstTs, int firstCapture, long firstNumber, CaseResult view,
                              List<ViewFinding> findings, long matched) {
    }

    /** One flow as the captures show it. */
    private static final class FlowView {
        final String label;
        final int number;
        final long firstNs;
        final int firstCapture;
        final long firstFrame;
        final int[] views = new int[MAX_VIEWS];
        int count;
        long frames;
        /** Per pair of view slots (a < b): matched count, sum, min, max of ts_b - ts_a. */
        final Map<Integer, long[]> pairs = new HashMap<>();
        /** Per (missing slot, mask of slots that saw it): count and examples. */
        final Map<Long, Miss> misses = new LinkedHashMap<>();
        long matched;

        FlowView(final String label, final int number, final Sighting first) {
            this.label = label;
            this.number = number;
            this.firstNs = first.ts;
            this.firstCapture = first.capture;
            this.firstFrame = first.number;
        }

        int slot(final int capture) {
            for (int i = 0; i < count; i++) {
                if (views[i] == capture) {
                    return i;
                }
            }
            if (count == MAX_VIEWS) {
                return -1;
            }
            views[count] = capture;
            return count++;
        }
    }

    private static final class Miss {
        final int missing;
        final long mask;
        long count;
        final List<Group> examples = new ArrayList<>();

        Miss(final int missing, final long mask) {
            this.missing = missing;
            this.mask = mask;
        }
    }

    /** The sightings of one frame. */
    private static final class Group {
        final long key;
        final FlowView flow;
        final int psn;
        final String opcode;
        final long createdNs;
        long mask;
        int n;
        final int[] slot = new int[SIGHTINGS];
        final long[] ts = new long[SIGHTINGS];
        final long[] number = new long[SIGHTINGS];
        long lastNs;
        Group next;

        Group(final long key, final FlowView flow, final int psn, final String opcode, final long createdNs) {
            this.key = key;
            this.flow = flow;
            this.psn = psn;
            this.opcode = opcode;
            this.createdNs = createdNs;
            this.lastNs = createdNs;
        }

        void add(final int s, final long t, final long frame) {
            mask |= 1L << s;
            lastNs = Math.max(lastNs, t);
            if (n < SIGHTINGS) {
                slot[n] = s;
                ts[n] = t;
                number[n] = frame;
                n++;
            }
        }
    }

    private final long windowNs;
    private final Captures captures;
    private final Map<Long, FlowView> flows = new LinkedHashMap<>();
    private final Map<Long, Group> open = new HashMap<>();
    private final ArrayDeque<Group> fifo = new ArrayDeque<>();
    private long matchedFrames;

    /**
     * @param windowNs how long after a frame's first sighting its copies are looked for
     * @param captures the captures' names and spans
     */
    public ViewMatcher(final long windowNs, final Captures captures) {
        this.windowNs = windowNs;
        this.captures = captures;
    }

    /** Matches the next sighting (in the order of the class comment). */
    public void add(final Sighting seen) {
        closeBefore(seen.ts - windowNs);
        sighting(seen);
    }

    /** Closes every group still open: the end of the captures. */
    public void finish() {
        closeBefore(Long.MAX_VALUE);
    }

    /** The frames seen in two captures or more so far. */
    long matchedFrames() {
        return matchedFrames;
    }

    private void sighting(final Sighting seen) {
        final long flowKey = seen.flowKey();
        FlowView flow = flows.get(flowKey);
        if (flow == null) {
            final int half = seen.addressBytes() / 2;
            flow = new FlowView(DecodedFrame.formatAddress(Arrays.copyOfRange(seen.addresses, 0, half)) + " -> "
                + DecodedFrame.formatAddress(Arrays.copyOfRange(seen.addresses, half, 2 * half)) + " qp "
                + Flow.qpn(seen.dqpn), flows.size() + 1, seen);
            flows.put(flowKey, flow);
        }
        final int s = flow.slot(seen.capture);
        if (s < 0) {
            return;
        }
        flow.frames++;
        final int psn = seen.psn;
        long key = (flowKey ^ psn * 0xD6E8FEB86659FD93L ^ (long) seen.opcode << 56 ^ seen.icrc << 24)
            * 0x9E3779B97F4A7C15L;
        key ^= key >>> 29;
        Group g = open.get(key);
        Group last = null;
        while (g != null && (g.flow != flow || g.psn != psn || (g.mask & 1L << s) != 0)) {
            last = g;
            g = g.next;
        }
        if (g == null) {
            g = new Group(key, flow, psn, Opcode.valueOf(seen.opcode).name(), seen.ts);
            if (last == null) {
                open.put(key, g);
            } else {
                last.next = g;
            }
            fifo.addLast(g);
        }
        g.add(s, seen.ts, seen.number);
    }

    private void closeBefore(final long limit) {
        while (!fifo.isEmpty() && fifo.peekFirst().createdNs < limit) {
            final Group g = fifo.removeFirst();
            unlink(g);
            close(g);
        }
    }

    private void unlink(final Group g) {
        final Group head = open.get(g.key);
        if (head == g) {
            if (g.next == null) {
                open.remove(g.key);
            } else {
                open.put(g.key, g.next);
            }
            return;
        }
        Group p = head;
        while (p != null && p.next != g) {
            p = p.next;
        }
        if (p != null) {
            p.next = g.next;
        }
    }

    private void close(final Group g) {
        final FlowView f = g.flow;
        if (f.count < 2) {
            return;
        }
        if (Long.bitCount(g.mask) > 1) {
            f.matched++;
            matchedFrames++;
        }
        for (int i = 0; i < g.n; i++) {
            for (int j = 0; j < g.n; j++) {
                if (g.slot[i] < g.slot[j]) {
                    final long delta = g.ts[j] - g.ts[i];
                    final long[] stats = f.pairs.computeIfAbsent(g.slot[i] << 8 | g.slot[j],
                        k -> new long[] {0, 0, Long.MAX_VALUE, Long.MIN_VALUE});
                    stats[0]++;
                    stats[1] += delta;
                    stats[2] = Math.min(stats[2], delta);
                    stats[3] = Math.max(stats[3], delta);
                }
            }
        }
        for (int v = 0; v < f.count; v++) {
            if ((g.mask & 1L << v) != 0 || !captures.covers(f.views[v], g.createdNs, g.lastNs)) {
                continue;
            }
            final int missing = v;
            final Miss m = f.misses.computeIfAbsent((long) v << 56 ^ g.mask, k -> new Miss(missing, g.mask));
            m.count++;
            if (m.examples.size() < EXAMPLES) {
                m.examples.add(g);
            }
        }
    }

    /** Every flow, in order of first sighting, with its case when two captures or more saw it (after finish). */
    public List<FlowOutcome> outcomes() {
        final List<FlowOutcome> out = new ArrayList<>(flows.size());
        for (final FlowView f : flows.values()) {
            CaseResult view = null;
            final List<ViewFinding> findings = new ArrayList<>();
            if (f.count >= 2) {
                view = ViewReport.of(f.label, f.number, names(f), positions(f), f.pairs, misses(f), f.matched,
                    f.frames, findings, reverseOf(f));
            }
            out.add(new FlowOutcome(f.number, f.firstNs, f.firstCapture, f.firstFrame, view, findings, f.matched));
        }
        return out;
    }

    private String[] names(final FlowView f) {
        final String[] names = new String[f.count];
        for (int v = 0; v < f.count; v++) {
            names[v] = captures.name(f.views[v]);
        }
        return names;
    }

    /**
     * Each view's place along the flow's path: the mean time its copies come after view 0's (on the captures'
     * clocks), or null when no frame matched it with a placed view.
     */
    private static Long[] positions(final FlowView f) {
        final Long[] pos = new Long[f.count];
        pos[0] = 0L;
        boolean moved = true;
        while (moved) {
            moved = false;
            for (final Map.Entry<Integer, long[]> e : f.pairs.entrySet()) {
                final int a = e.getKey() >>> 8;
                final int b = e.getKey() & 0xFF;
                final long mean = e.getValue()[1] / e.getValue()[0];
                if (pos[a] != null && pos[b] == null) {
                    pos[b] = pos[a] + mean;
                    moved = true;
                } else if (pos[b] != null && pos[a] == null) {
                    pos[a] = pos[b] - mean;
                    moved = true;
                }
            }
        }
        return pos;
    }

    private static List<ViewReport.Missing> misses(final FlowView f) {
        final List<ViewReport.Missing> out = new ArrayList<>();
        for (final Miss m : f.misses.values()) {
            final List<ViewReport.Example> examples = new ArrayList<>();
            for (final Group g : m.examples) {
                final long[] frames = new long[f.count];
                final long[] times = new long[f.count];
                for (int i = 0; i < g.n; i++) {
                    frames[g.slot[i]] = g.number[i];
                    times[g.slot[i]] = g.ts[i];
                }
                examples.add(new ViewReport.Example(g.psn, g.opcode, frames, times));
            }
            out.add(new ViewReport.Missing(m.missing, m.mask, m.count, examples));
        }
        return out;
    }

    /** The flow's other direction's latency between the same two captures, for the clock offset estimate. */
    private ViewReport.Reverse reverseOf(final FlowView f) {
        if (f.count != 2) {
            return null;
        }
        final long[] forward = f.pairs.get(1);
        if (forward == null) {
            return null;
        }
        for (final FlowView r : flows.values()) {
            if (r == f || r.count != 2 || !reversed(f.label, r.label)) {
                continue;
            }
            final long[] back = r.pairs.get(1);
            if (back == null) {
                continue;
            }
            // the reverse flow's slot 0 and 1 may be the captures the other way round
            final boolean same = r.views[0] == f.views[0];
            final long backMean = (same ? -1 : 1) * back[1] / back[0];
            return new ViewReport.Reverse(r.label, forward[1] / forward[0], backMean);
        }
        return null;
    }

    /** True when {@code b} goes between the same hosts as {@code a}, the other way. */
    private static boolean reversed(final String a, final String b) {
        final String[] x = a.split(" ");
        final String[] y = b.split(" ");
        return x[0].equals(y[2]) && x[2].equals(y[0]);
    }

    /** A flow's case numbered {@code number} among all flows ({@code views/F<number>}); everything else kept. */
    public static CaseResult numbered(final CaseResult view, final int number) {
        return new CaseResult("views/F" + number, view.caseId(), view.title(), view.area(), view.rules(),
            view.level(), view.role(), view.file(), view.parameters(), view.verdict(), view.reason(), view.failure(),
            view.wallNanos(), view.deviceNanos(), view.attempts(), view.evidence(), view.notes(), view.series(),
            view.control());
    }
}
