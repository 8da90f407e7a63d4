package org.metaroce.mrct.analyzer.internal;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.metaroce.mrct.analyzer.ViewFinding;
import org.metaroce.mrct.harness.result.CaseResult;

/**
 * The case of one flow seen in several captures ({@link Views}): its frames lost between two captures, the frames a
 * capture downstream saw that none upstream did, the one-way latency between the captures with the clock caveat. The
 * case judges the network and the capture points, not a device: it names no rule, and its verdict is WARN when a frame
 * went missing, PASS otherwise.
 */
final class ViewReport {
    /** One frame missing from a capture: its PSN, opcode, and its record number and time per view (0: not seen). */
    record Example(int psn, String opcode, long[] frames, long[] times) {
    }

    /** The frames missing from view {@code missing} that the views of {@code mask} saw. */
    record Missing(int missing, long mask, long count, List<Example> examples) {
    }

    /** The other direction between the same two captures: mean (capture 1 - capture 0) of each direction. */
    record Reverse(String label, long forwardMeanNs, long backwardMeanNs) {
    }

    private ViewReport() {
    }

    static CaseResult of(final String label, final int number, final String[] names, final Long[] pos,
                         final Map<Integer, long[]> pairs, final List<Missing> misses, final long matched,
                         final long frames, final List<ViewFinding> findings, final Reverse reverse) {
        final List<String> notes = new ArrayList<>();
        final List<ViewFinding> mine = new ArrayList<>();
        long lost = 0;
        long notSent = 0;
        long missedByCapture = 0;
        long unknown = 0;
        for (final Missing m : misses) {
            final int v = m.missing();
            int upstream = -1;
            int downstream = -1;
            boolean placed = pos[v] != null;
            for (int s = 0; s < names.length && placed; s++) {
                if ((m.mask() & 1L << s) == 0 || pos[s] == null) {
                    continue;
                }
                if (pos[s] < pos[v] || pos[s].equals(pos[v]) && s < v) {
                    upstream = upstream < 0 || pos[s] > pos[upstream] ? s : upstream;
                } else {
                    downstream = downstream < 0 || pos[s] < pos[downstream] ? s : downstream;
                }
            }
            final ViewFinding.Kind kind;
            final int seen;
            if (!placed || upstream < 0 && downstream < 0) {
                unknown += m.count();
                continue;
            } else if (upstream >= 0 && downstream >= 0) {
                missedByCapture += m.count();
                continue;
            } else if (upstream >= 0) {
                kind = ViewFinding.Kind.LOST;
                seen = upstream;
                lost += m.count();
            } else {
                kind = ViewFinding.Kind.NOT_SENT;
                seen = downstream;
                notSent += m.count();
            }
            for (final Example e : m.examples()) {
                mine.add(new ViewFinding(kind, label, e.psn(), e.opcode(), names[seen], e.frames()[seen],
                    e.times()[seen], names[v]));
            }
            if (m.count() > m.examples().size()) {
                notes.add("and " + (m.count() - m.examples().size()) + " more frames " + (kind == ViewFinding.Kind.LOST
                    ? "lost" : "never sent") + " like these (" + names[seen] + " saw them, " + names[v] + " did not)");
            }
        }
        mine.sort((a, b) -> Long.compare(a.tsNs(), b.tsNs()));
        findings.addAll(mine);
        final List<String> lines = new ArrayList<>();
        for (final ViewFinding f : mine) {
            lines.add(f.describe());
        }
        lines.addAll(notes);
        if (missedByCapture > 0) {
            lines.add(missedByCapture + " frames were seen on both sides of a capture that did not see them: that "
                + "capture dropped them (not the network)");
        }
        if (unknown > 0) {
            lines.add(unknown + " frames are missing from a capture whose place along the path is not known (no frame "
                + "of the flow matched in it)");
        }
        final String latency = latency(names, pos, pairs, lines);
        if (reverse != null) {
            final long offset = (reverse.forwardMeanNs() - reverse.backwardMeanNs()) / 2;
            final long oneWay = (reverse.forwardMeanNs() + reverse.backwardMeanNs()) / 2;
            lines.add(String.format(Locale.ROOT, "with the other direction (%s): if both directions take the same "
                    + "time, %s's clock is %s ahead of %s's, and the one-way latency is %s", reverse.label(), names[1],
                ns(offset), names[0], ns(oneWay)));
        }
        final StringBuilder reason = new StringBuilder();
        reason.append(matched).append(" of ").append(frames).append(" sightings matched across ")
            .append(String.join(", ", names));
        if (lost > 0) {
            final ViewFinding first = mine.stream().filter(f -> f.kind() == ViewFinding.Kind.LOST).findFirst()
                .orElseThrow();
            reason.append("; ").append(lost).append(" lost in the network (first: PSN ").append(Text.psn(first.psn()))
                .append(", frame ").append(first.frame()).append(" of ").append(first.seenIn()).append(", not in ")
                .append(first.missingIn()).append(')');
        }
        if (notSent > 0) {
            final ViewFinding first = mine.stream().filter(f -> f.kind() == ViewFinding.Kind.NOT_SENT).findFirst()
                .orElseThrow();
            reason.append("; ").append(notSent).append(" received that ").append(first.missingIn())
                .append(" never saw sent (first: PSN ").append(Text.psn(first.psn())).append(", frame ")
                .append(first.frame()).append(" of ").append(first.seenIn()).append(')');
        }
        if (latency != null) {
            reason.append("; ").append(latency);
        }
        final Map<String, Object> parameters = new LinkedHashMap<>();
        parameters.put("flow", label);
        parameters.put("captures", String.join(", ", names));
        parameters.put("lost", lost);
        parameters.put("not_sent", notSent);
        return new CaseResult("views/F" + number, "views", label + " in " + String.join(", ", names), "views",
            List.of(), null, null, String.join(", ", names), parameters, Views.verdict(lost, notSent),
            reason.toString(), null, 0, 0, 1, List.of(), lines, Map.of());
    }

    /** Adds a line per pair of captures with its one-way latency; returns the first, short, for the reason. */
    private static String latency(final String[] names, final Long[] pos, final Map<Integer, long[]> pairs,
                                  final List<String> lines) {
        String first = null;
        for (int a = 0; a < names.length; a++) {
            for (int b = a + 1; b < names.length; b++) {
                final long[] s = pairs.get(a << 8 | b);
                if (s == null || s[0] == 0) {
                    continue;
                }
                final boolean forward = s[1] >= 0;
                final String from = forward ? names[a] : names[b];
                final String to = forward ? names[b] : names[a];
                final long mean = Math.abs(s[1] / s[0]);
                final long min = forward ? s[2] : -s[3];
                final long max = forward ? s[3] : -s[2];
                final String text = String.format(Locale.ROOT, "one-way latency %s -> %s: mean %s (min %s, max %s, "
                    + "%d frames)", from, to, ns(mean), ns(min), ns(max), s[0]);
                lines.add(text + ", on the two captures' clocks: any offset between them is included");
                if (first == null) {
                    first = String.format(Locale.ROOT, "one-way latency %s -> %s mean %s (clock offset included)",
                        from, to, ns(mean));
                }
            }
        }
        return first;
    }

    private static String ns(final long value) {
        if (Math.abs(value) < 10_000) {
            return value + " ns";
        }
        if (Math.abs(value) < 10_000_000) {
            return String.format(Locale.ROOT, "%.1f us", value / 1e3);
        }
        return String.format(Locale.ROOT, "%.1f ms", value / 1e6);
    }
}
