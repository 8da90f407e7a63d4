package org.metaroce.mrct.analyzer.internal;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.metaroce.mrct.harness.result.CaseResult;
import org.metaroce.mrct.harness.result.Verdict;
import org.metaroce.mrct.oracle.Scope;
import org.metaroce.mrct.wire.BigEndian;
import org.metaroce.mrct.wire.DecodedFrame;
import org.metaroce.mrct.wire.HeaderKind;

/**
 * The frames of a capture that MetaRoCE's rules do not judge ({@link Scope}: UC, UD, management datagrams on QP0 and
 * QP1, other services, datagrams to port 4791 that are no BTH), counted per kind and per flow and reported as one
 * NOT_APPLICABLE case per kind, with the reason. They never reach a {@link Flow}: the RC traffic beside them is
 * judged exactly as without them.
 */
final class OutOfScope {
    /** Flows listed per kind; more are counted in one line. */
    private static final int FLOWS = 16;
    /** The connection manager's management class (InfiniBand 16.7) and the names of its attributes. */
    private static final int CM_CLASS = 0x07;
    private static final Map<Integer, String> CM_ATTRIBUTES = Map.of(0x0010, "REQ", 0x0011, "MRA", 0x0012, "REJ",
        0x0013, "REP", 0x0014, "RTU", 0x0015, "DREQ", 0x0016, "DREP", 0x0017, "SIDR_REQ", 0x0018, "SIDR_REP",
        0x0019, "LAP");

    private static final class Tally {
        long frames;
        long bytes;
        long firstFrame;
        String reason;
        /** Per flow key: its label and {its count, its first frame}. */
        final Map<Long, Object[]> flows = new LinkedHashMap<>();
        long otherFlows;
        final Map<String, long[]> messages = new LinkedHashMap<>();
    }

    private final Map<Scope.Kind, Tally> tallies = new EnumMap<>(Scope.Kind.class);

    /** A frame outside the scope, number {@code number} of the capture, {@code length} bytes on the wire. */
    void add(final Scope scope, final DecodedFrame f, final long number, final int length) {
        final Tally tally = tallies.computeIfAbsent(scope.kind(), k -> new Tally());
        if (tally.frames++ == 0) {
            tally.firstFrame = number;
            tally.reason = scope.reason();
        }
        tally.bytes += length;
        // the flow's label is built once per flow, found again by a key read from the frame without allocating
        final long key = key(f);
        final Object[] entry = tally.flows.get(key);
        if (entry != null) {
            ((long[]) entry[1])[0]++;
        } else if (tally.flows.size() < FLOWS) {
            tally.flows.put(key, new Object[] {flow(f), new long[] {1, number}});
        } else {
            tally.otherFlows++;
        }
        if (scope.kind() == Scope.Kind.MAD) {
            tally.messages.computeIfAbsent(mad(f), k -> new long[] {0, number})[0]++;
        }
    }

    /**
     * Adds the frames {@code others} counted, each over frames of the same capture that neither this nor any other of
     * them saw, as if one had counted them all in the capture's order: the flows and messages listed in order of their
     * first frame, the first {@value #FLOWS} flows by name and the rest as other flows.
     */
    void absorb(final List<OutOfScope> others) {
        for (final Scope.Kind kind : Scope.Kind.values()) {
            final List<Tally> parts = new ArrayList<>();
            if (tallies.containsKey(kind)) {
                parts.add(tallies.get(kind));
            }
            for (final OutOfScope other : others) {
                if (other.tallies.containsKey(kind)) {
                    parts.add(other.tallies.get(kind));
                }
            }
            if (parts.size() < 2) {
                if (parts.size() == 1) {
                    tallies.put(kind, parts.get(0));
                }
                continue;
            }
            final Tally merged = new Tally();
            final Map<Long, Object[]> flows = new LinkedHashMap<>();
            final Map<String, long[]> messages = new LinkedHashMap<>();
            merged.firstFrame = Long.MAX_VALUE;
            for (final Tally part : parts) {
                merged.frames += part.frames;
                merged.bytes += part.bytes;
                merged.otherFlows += part.otherFlows;
                if (part.firstFrame < merged.firstFrame) {
                    merged.firstFrame = part.firstFrame;
                    merged.reason = part.reason;
                }
                part.flows.forEach((key, entry) -> flows.merge(key, new Object[] {entry[0],
                    ((long[]) entry[1]).clone()}, (a, b) -> {
                        final long[] x = (long[]) a[1];
                        final long[] y = (long[]) b[1];
                        return new Object[] {x[1] <= y[1] ? a[0] : b[0], new long[] {x[0] + y[0],
                            Math.min(x[1], y[1])}};
                    }));
                part.messages.forEach((name, n) -> messages.merge(name, n.clone(),
                    (x, y) -> new long[] {x[0] + y[0], Math.min(x[1], y[1])}));
            }
            final List<Map.Entry<Long, Object[]>> byFirst = new ArrayList<>(flows.entrySet());
            byFirst.sort(java.util.Comparator.comparingLong(e -> ((long[]) e.getValue()[1])[1]));
            for (final Map.Entry<Long, Object[]> entry : byFirst) {
                if (merged.flows.size() < FLOWS) {
                    merged.flows.put(entry.getKey(), entry.getValue());
                } else {
                    merged.otherFlows += ((long[]) entry.getValue()[1])[0];
                }
            }
            final List<Map.Entry<String, long[]>> messagesByFirst = new ArrayList<>(messages.entrySet());
            messagesByFirst.sort(java.util.Comparator.comparingLong(e -> e.getValue()[1]));
            messagesByFirst.forEach(e -> merged.messages.put(e.getKey(), e.getValue()));
            tallies.put(kind, merged);
        }
    }

    /** Frames outside the scope in all. */
    long frames() {
        long n = 0;
        for (final Tally tally : tallies.values()) {
            n += tally.frames;
        }
        return n;
    }

    /** Frames of one kind. */
    long frames(final Scope.Kind kind) {
        final Tally tally = tallies.get(kind);
        return tally == null ? 0 : tally.frames;
    }

    /** One NOT_APPLICABLE case per kind seen, IDs {@code <prefix>out-of-scope/<kind>}. */
    List<CaseResult> cases(final String prefix, final String capture) {
        final List<CaseResult> cases = new ArrayList<>();
        for (final Map.Entry<Scope.Kind, Tally> entry : tallies.entrySet()) {
            final Scope.Kind kind = entry.getKey();
            final Tally tally = entry.getValue();
            final List<String> notes = new ArrayList<>();
            for (final Object[] flow : tally.flows.values()) {
                notes.add(flow[0] + ": " + frames(((long[]) flow[1])[0]));
            }
            if (tally.otherFlows > 0) {
                notes.add("and " + frames(tally.otherFlows) + " of other flows");
            }
            if (!tally.messages.isEmpty()) {
                final StringBuilder text = new StringBuilder("management datagrams:");
                tally.messages.forEach((name, n) -> text.append(' ').append(name).append(" x").append(n[0]));
                notes.add(text.toString());
            }
            notes.add("MetaRoCE v1 Appendix F.1: no rule of the specification binds these frames, and the RC "
                + "traffic beside them is judged as if they were absent");
            final Map<String, Object> params = new LinkedHashMap<>();
            params.put("kind", kind.label());
            params.put("frames", tally.frames);
            params.put("bytes", tally.bytes);
            final String reason = frames(tally.frames) + " outside MetaRoCE's scope, not judged (first at frame "
                + tally.firstFrame + ": " + tally.reason + ")";
            cases.add(new CaseResult(prefix + "out-of-scope/" + kind.label(), "out-of-scope", title(kind), "scope",
                List.of(), null, null, capture, params, Verdict.NOT_APPLICABLE, reason, null, 0, 0, 1, List.of(),
                notes, Map.of()));
        }
        return cases;
    }

    private static String title(final Scope.Kind kind) {
        switch (kind) {
            case UC:
                return "unreliable connected (UC) frames";
            case UD:
                return "unreliable datagram (UD) frames";
            case MAD:
                return "management datagrams on QP0 and QP1 (connection manager)";
            case OTHER_SERVICE:
                return "frames of other services (RD, XRC, manufacturer specific)";
            default:
                return "datagrams to UDP port 4791 that are no RoCE BTH";
        }
    }

    private static String frames(final long n) {
        return n + (n == 1 ? " frame" : " frames");
    }

    /** A 64-bit key of the frame's addresses and destination QP (a collision merges two flows' counts, no more). */
    private static long key(final DecodedFrame f) {
        final boolean v4 = f.has(HeaderKind.IPV4);
        final int ip = f.offset(v4 ? HeaderKind.IPV4 : HeaderKind.IPV6);
        final int from = ip + (v4 ? 12 : 8);
        final int length = v4 ? 8 : 32;
        long key = f.has(HeaderKind.BTH) ? f.bth().destQp() : -1;
        for (int i = 0; i < length; i += 4) {
            key = key * 0x9E3779B97F4A7C15L + BigEndian.i32(f.buffer(), from + i);
        }
        return key;
    }

    private static String flow(final DecodedFrame f) {
        final String from = DecodedFrame.formatAddress(f.ipSource());
        final String to = DecodedFrame.formatAddress(f.ipDestination());
        return from + " -> " + to + (f.has(HeaderKind.BTH) ? String.format(Locale.ROOT, " qp 0x%06x",
            f.bth().destQp()) : "");
    }

    /**
     * The MAD a UD frame to QP0 or QP1 carries, named by its class and attribute: after the DETH, the common MAD
     * header (InfiniBand 13.4.2) holds the management class (byte 1), the method (byte 3) and the attribute ID
     * (bytes 16-17).
     */
    private static String mad(final DecodedFrame f) {
        final int at = f.payloadOffset();
        if (!f.layoutKnown() || f.payloadLength() < 24) {
            return "unreadable";
        }
        final int mgmtClass = BigEndian.u8(f.buffer(), at + 1);
        final int attribute = BigEndian.u16(f.buffer(), at + 16);
        if (mgmtClass == CM_CLASS) {
            return "CM " + CM_ATTRIBUTES.getOrDefault(attribute, String.format(Locale.ROOT, "0x%04x", attribute));
        }
        return String.format(Locale.ROOT, "class 0x%02x attribute 0x%04x", mgmtClass, attribute);
    }
}
