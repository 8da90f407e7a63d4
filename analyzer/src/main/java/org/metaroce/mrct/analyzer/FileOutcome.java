package org.metaroce.mrct.analyzer;

/**
 * What the analysis of one capture file gave.
 *
 * @param name            the capture as given
 * @param frames          records read
 * @param roceFrames      RoCE frames among them
 * @param connections     connections found (mrct evidence: summed over its cases)
 * @param cutFrames       frames cut short by the capture's snap length: their headers were judged, not their payload
 *                        and ICRC
 * @param otherLinkFrames frames of a link type that is neither Ethernet nor Linux cooked, and RoCEv1 frames: not
 *                        analysed
 * @param evidence        true for an mrct evidence file, analysed case by case
 * @param elapsedNs       time spent reading and analysing
 * @param problem         why the file could not be read to its end, as {@code byte N (record R): reason} (or
 *                        {@code no such file}, ...); null when it was read whole
 * @param oversizedFrames records larger than any Ethernet frame (over 256 KiB): skipped, not analysed; the file
 *                        counts as not read whole (exit status 2)
 * @param oversized       the first of them, as {@code record R at byte B: N bytes captured, ...}; null when none
 * @param released        connections judged and released before the capture's end, their state forgotten (idle
 *                        longer than the release window, or beyond the cap on the flows held; their findings are
 *                        those of the capture's end)
 * @param releasedEarly   those of them released before their window ran out, to bound the heap: what their later
 *                        frames could change is inconclusive (each such connection says so in its summary)
 * @param resumedFlows    flows whose QP was released before and that resumed later: a new segment each, judged like
 *                        a connection first seen mid-capture (its summary says so)
 */
public record FileOutcome(String name, long frames, long roceFrames, int connections, long cutFrames,
                          long otherLinkFrames, boolean evidence, long elapsedNs, String problem,
                          long oversizedFrames, String oversized, long released, long releasedEarly,
                          long resumedFlows) {
    /** Nothing released before the capture's end. */
    public FileOutcome(final String name, final long frames, final long roceFrames, final int connections,
                       final long cutFrames, final long otherLinkFrames, final boolean evidence, final long elapsedNs,
                       final String problem, final long oversizedFrames, final String oversized) {
        this(name, frames, roceFrames, connections, cutFrames, otherLinkFrames, evidence, elapsedNs, problem,
            oversizedFrames, oversized, 0, 0, 0);
    }

    /** Without oversized records. */
    public FileOutcome(final String name, final long frames, final long roceFrames, final int connections,
                       final long cutFrames, final long otherLinkFrames, final boolean evidence, final long elapsedNs,
                       final String problem) {
        this(name, frames, roceFrames, connections, cutFrames, otherLinkFrames, evidence, elapsedNs, problem, 0,
            null, 0, 0, 0);
    }

    /** True when the file was not read whole: damage, or records skipped as larger than any frame. */
    public boolean incomplete() {
        return problem != null || oversizedFrames > 0;
    }
}
