package org.metaroce.mrct.analyzer.internal;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import org.metaroce.mrct.analyzer.ViewFinding;
import org.metaroce.mrct.harness.result.CaseResult;
import org.metaroce.mrct.harness.result.Verdict;

/**
 * Several captures of the same traffic side by side (one per host, or per switch port): every RoCEv2 frame is matched
 * with its copies in the other captures by its flow (source and destination address, bth.dqpn), PSN, opcode and ICRC,
 * and what only two views show is reported per flow: frames lost between two captures (seen upstream, missing
 * downstream, with the last capture that saw them), frames one capture received that the capture upstream never saw,
 * and the one-way latency between the captures, with the clock caveat.
 *
 * <p>The captures are read together in timestamp order (a k-way merge, {@link SightingReader} per capture) and fed to
 * one {@link ViewMatcher}; a frame's copies are looked for within a window of {@code windowNs} after its first
 * sighting: the latency between the capture points plus the offset between their clocks must be below it. Memory is
 * what the window holds (the frames of every capture within it), whatever the captures' sizes. A capture counts as
 * missing a frame only while it was capturing: its first frame is no later and its last no earlier than the frame's
 * sightings. Which of two captures is upstream is read from the matched frames: the one that sees them first, on its
 * clock.
 */
public final class Views {
    /** What the matching gave: one case per flow seen in two captures or more, and the findings kept. */
    public record Result(List<CaseResult> cases, List<ViewFinding> findings, long matchedFrames) {
    }

    private Views() {
    }

    /**
     * Matches the frames of {@code paths} (named {@code names} in reports) across them.
     *
     * @param windowNs how long after a frame's first sighting its copies are looked for
     */
    public static Result match(final List<Path> paths, final List<String> names, final long windowNs) {
        final List<SightingReader> cursors = new ArrayList<>();
        final SightingReader[] byIndex = new SightingReader[paths.size()];
        try {
            for (int i = 0; i < paths.size(); i++) {
                final SightingReader reader = SightingReader.open(paths.get(i), i);
                if (reader != null) {
                    cursors.add(reader);
                    byIndex[i] = reader;
                }
            }
            final ViewMatcher matcher = new ViewMatcher(windowNs, new ViewMatcher.Captures() {
                @Override
                public String name(final int capture) {
                    return names.get(capture);
                }

                @Override
                public boolean covers(final int capture, final long from, final long to) {
                    return byIndex[capture].covers(from, to);
                }
            });
            final PriorityQueue<SightingReader> queue = new PriorityQueue<>((a, b) -> a.seen.ts != b.seen.ts
                ? Long.compare(a.seen.ts, b.seen.ts) : Integer.compare(a.index, b.index));
            for (final SightingReader c : cursors) {
                if (c.advance()) {
                    queue.add(c);
                }
            }
            while (!queue.isEmpty()) {
                final SightingReader c = queue.poll();
                matcher.add(c.seen);
                if (c.advance()) {
                    queue.add(c);
                }
            }
            matcher.finish();
            final List<CaseResult> cases = new ArrayList<>();
            final List<ViewFinding> findings = new ArrayList<>();
            for (final ViewMatcher.FlowOutcome flow : matcher.outcomes()) {
                if (flow.view() != null) {
                    cases.add(flow.view());
                    findings.addAll(flow.findings());
                }
            }
            return new Result(cases, findings, matcher.matchedFrames());
        } finally {
            for (final SightingReader c : cursors) {
                c.close();
            }
        }
    }

    /** The verdict of a flow's case: WARN when a frame went missing between two captures, PASS otherwise. */
    static Verdict verdict(final long lost, final long notSent) {
        return lost + notSent > 0 ? Verdict.WARN : Verdict.PASS;
    }
}
