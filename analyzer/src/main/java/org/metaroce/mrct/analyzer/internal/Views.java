package org.metaroce.mrct.analyzer.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import org.metaroce.mrct.analyzer.ViewFinding;
import org.metaroce.mrct.harness.result.CaseResult;
import org.metaroce.mrct.harness.result.Verdict;
import org.metaroce.mrct.wire.BigEndian;
import org.metaroce.mrct.wire.DecodeStatus;
import org.metaroce.mrct.wire.DecodedFrame;
import org.metaroce.mrct.wire.FrameDecoder;
import org.metaroce.mrct.wire.HeaderKind;
import org.metaroce.mrct.wire.RoceVersion;
import org.metaroce.mrct.wire.capture.CaptureReader;

/**
 * Several captures of the same traffic side by side (one per host, or per switch port): every RoCEv2 frame is matched
 * with its copies in the other captures by its flow (source and destination address, bth.dqpn), PSN, opcode and ICRC,
 * and what only two views show is reported per flow: frames lost between two captures (seen upstream, missing
 * downstream, with the last capture that saw them), frames one capture received that the capture upstream never saw,
 * and the one-way latency between the captures, with the clock caveat.
 *
 * <p>The captures are read together in timestamp order (a k-way merge), and a frame's copies are looked for within a
 * window of {@code windowNs} after its first sighting: the latency between the capture points plus the offset between
 * their clocks must be below it. Memory is what the window holds (the frames of every capture within it), whatever
 * the captures' sizes. A capture counts as missing a frame only while it was capturing: its first frame is no later
 * and its last no earlier than the frame's sightings. Which of two captures is upstream is read from the matched
 * frames: the one that sees them first, on its clock.
 */
public final class Views {
    /** Findings kept per flow and kind, with their frames; the rest are counted. */
    static final int EXAMPLES = 20;
    /** Captures a flow is matched across at most. */
    static final int MAX_VIEWS = 64;
    /** Sightings kept per frame with their time and record number. */
    private static final int SIGHTINGS = 4;

    /** What the matching gave: one case per flow seen in two captures or more, and the findings kept. */
    public record Result(List<CaseResult> cases, List<ViewFinding> findings, long matchedFrames) {
    }

    private static final class Cursor {
        final int index;
        final String name;
        final CaptureReader reader;
        final FrameDecoder decoder = new FrameDecoder();
        ByteBuffer scratch = ByteBuffer.allocate(1 << 16);
        long firstTs = Long.MIN_VALUE;
        long lastTs = Long.MIN_VALUE;
        boolean done;
        // the current frame
        long ts;
        long number;
        DecodedFrame frame;
        ByteBuffer buffer;

        Cursor(final int index, final String name, final CaptureReader reader) {
            this.index = index;
            this.name = name;
            this.reader = reader;
        }

        /** Moves to the next RoCEv2 frame; false at the end (or at damage, which the analysis reports). */
        boolean advance() {
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
                    ts = reader.timestampNanos();
                    number = reader.recordNumber();
                    frame = d;
                    buffer = b;
                    if (firstTs == Long.MIN_VALUE) {
                        firstTs = ts;
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

        /** True when this capture was capturing over {@code [from, to]}. */
        boolean covers(final long from, final long to) {
            return firstTs != Long.MIN_VALUE && firstTs <= from && (!done || lastTs >= to);
        }
    }

    /** One flow as the captures show it. */
    private static final class FlowView {
        final String label;
        final int number;
        final long firstNs;
        final int[] views = new int[MAX_VIEWS];
        int count;
        long frames;
        /** Per pair of view slots (a < b): matched count, sum, min, max of ts_b - ts_a. */
        final Map<Integer, long[]> pairs = new HashMap<>();
        /** Per (missing slot, mask of slots that saw it): count and examples. */
        final Map<Long, Miss> misses = new LinkedHashMap<>();
        long matched;

        FlowView(final String label, final int number, final long firstNs) {
            this.label = label;
            this.number = number;
            this.firstNs = firstNs;
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

        int indexOf(final int s) {
            for (int i = 0; i < n; i++) {
                if (slot[i] == s) {
                    return i;
                }
            }
            return -1;
        }
    }

    private final long windowNs;
    private final List<Cursor> cursors = new ArrayList<>();
    private final Map<Long, FlowView> flows = new LinkedHashMap<>();
    private final Map<Long, Group> open = new HashMap<>();
    private final ArrayDeque<Group> fifo = new ArrayDeque<>();
    private long matchedFrames;

    private Views(final long windowNs) {
        this.windowNs = windowNs;
    }

    /**
     * Matches the frames of {@code paths} (named {@code names} in reports) across them.
     *
     * @param windowNs how long after a frame's first sighting its copies are looked for
     */
    public static Result match(final List<Path> paths, final List<String> names, final long windowNs) {
        final Views views = new Views(windowNs);
        try {
            for (int i = 0; i < paths.size(); i++) {
                try {
                    views.cursors.add(new Cursor(i, names.get(i), CaptureReader.open(paths.get(i))));
                } catch (IOException e) {
                    // unreadable: the per-capture analysis names it
                }
            }
            views.run();
        } finally {
            for (final Cursor c : views.cursors) {
                try {
                    c.reader.close();
                } catch (IOException e) {
                    // read only
                }
            }
        }
        return views.result();
    }

    private void run() {
        final PriorityQueue<Cursor> queue = new PriorityQueue<>((a, b) -> a.ts != b.ts ? Long.compare(a.ts, b.ts)
            : Integer.compare(a.index, b.index));
        for (final Cursor c : cursors) {
            if (c.advance()) {
                queue.add(c);
            }
        }
        while (!queue.isEmpty()) {
            final Cursor c = queue.poll();
            closeBefore(c.ts - windowNs);
            sighting(c);
            if (c.advance()) {
                queue.add(c);
            }
        }
        closeBefore(Long.MAX_VALUE);
    }

    private void sighting(final Cursor c) {
        final DecodedFrame d = c.frame;
        final ByteBuffer b = c.buffer;
        final boolean v4 = d.has(HeaderKind.IPV4);
        final int ip = d.offset(v4 ? HeaderKind.IPV4 : HeaderKind.IPV6);
        final int bth = d.offset(HeaderKind.BTH);
        final int dqpn = BigEndian.u24(b, bth + 5);
        final int psn = BigEndian.u24(b, bth + 9);
        final int opcode = BigEndian.u8(b, bth);
        long flowKey = dqpn * 0x9E3779B97F4A7C15L;
        final int from = ip + (v4 ? 12 : 8);
        final int addressBytes = v4 ? 8 : 32;
        for (int i = 0; i < addressBytes; i += 4) {
            flowKey = (flowKey ^ (BigEndian.i32(b, from + i) & 0xFFFF_FFFFL)) * 0xC2B2AE3D27D4EB4FL;
        }
        flowKey ^= flowKey >>> 31;
        FlowView flow = flows.get(flowKey);
        if (flow == null) {
            final byte[] source = new byte[v4 ? 4 : 16];
            final byte[] destination = new byte[source.length];
            b.get(from, source, 0, source.length);
            b.get(from + source.length, destination, 0, destination.length);
            flow = new FlowView(DecodedFrame.formatAddress(source) + " -> " + DecodedFrame.formatAddress(destination)
                + " qp " + Flow.qpn(dqpn), flows.size() + 1, c.ts);
            flows.put(flowKey, flow);
        }
        final int s = flow.slot(c.index);
        if (s < 0) {
            return;
        }
        flow.frames++;
        final long icrc = d.has(HeaderKind.ICRC) ? d.icrcOnWire() & 0xFFFF_FFFFL : 0;
        long key = (flowKey ^ psn * 0xD6E8FEB86659FD93L ^ (long) opcode << 56 ^ icrc << 24) * 0x9E3779B97F4A7C15L;
        key ^= key >>> 29;
        Group g = open.get(key);
        Group last = null;
        while (g != null && (g.flow != flow || g.psn != psn || (g.mask & 1L << s) != 0)) {
            last = g;
            g = g.next;
        }
        if (g == null) {
            g = new Group(key, flow, psn, d.opcode().name(), c.ts);
            if (last == null) {
                open.put(key, g);
            } else {
                last.next = g;
            }
            fifo.addLast(g);
        }
        g.add(s, c.ts, c.number);
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
            if ((g.mask & 1L << v) != 0 || !cursors.get(indexOfCapture(f.views[v])).covers(g.createdNs, g.lastNs)) {
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

    private int indexOfCapture(final int capture) {
        for (int i = 0; i < cursors.size(); i++) {
            if (cursors.get(i).index == capture) {
                return i;
            }
        }
        throw new IllegalStateException("capture " + capture);
    }

    private Result result() {
        final List<CaseResult> cases = new ArrayList<>();
        final List<ViewFinding> findings = new ArrayList<>();
        for (final FlowView f : flows.values()) {
            if (f.count >= 2) {
                cases.add(ViewReport.of(f.label, f.number, names(f), positions(f), f.pairs, misses(f), f.matched,
                    f.frames, findings, reverseOf(f)));
            }
        }
        return new Result(cases, findings, matchedFrames);
    }

    private String[] names(final FlowView f) {
        final String[] names = new String[f.count];
        for (int v = 0; v < f.count; v++) {
            names[v] = cursors.get(indexOfCapture(f.views[v])).name;
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

    /** The verdict of a flow's case: WARN when a frame went missing between two captures, PASS otherwise. */
    static Verdict verdict(final long lost, final long notSent) {
        return lost + notSent > 0 ? Verdict.WARN : Verdict.PASS;
    }
}
