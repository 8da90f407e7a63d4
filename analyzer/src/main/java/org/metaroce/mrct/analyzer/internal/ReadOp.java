package org.metaroce.mrct.analyzer.internal;

import org.metaroce.mrct.wire.Psn;

/**
 * An RDMA READ the requester sent: where its span starts, how long the read is, and what its responses must carry.
 * How many PSNs the span takes depends on the PMTU, which the capture may not show: the requester's view is kept as a
 * range ({@link #minSpan} to {@link #maxSpan}, narrowed by what its own packets say of its PMTU), the responder's as
 * {@link #answeredSpan} once its LAST or ONLY response tells.
 */
final class ReadOp {
    final int psn;
    final long length;
    final int msn;
    final long va;
    final int rkey;
    final long frame;
    int minSpan;
    int maxSpan;
    /** The span the responder's LAST or ONLY response showed, or -1. */
    int answeredSpan = -1;
    /** The PSNs of the span answered so far. */
    int answered;
    /** The lowest PSN of the span asked for again since the last response, or -1. */
    int rerequestedFrom = -1;
    /** True once the read was asked for again (its responses may then carry a later MSN). */
    boolean repeated;
    /**
     * TVer 0 (section 16): the responses taken in order from the start of the span, so the requester's next expected
     * response PSN is {@code psn + inOrder}.
     */
    int inOrder;
    /**
     * TVer 0: a response after the next expected one came (MR-LEG-010: the requester discards it and asks for the
     * rest of the read at the expected PSN), and no response at the expected PSN has come since.
     */
    boolean responseGap;

    /** The next read response PSN a TVer 0 requester expects for this read. */
    int expectedResponse() {
        return Psn.add(psn, inOrder);
    }

    ReadOp(final int psn, final long length, final int msn, final long va, final int rkey, final long frame,
           final Pmtu pmtu) {
        this.psn = psn;
        this.length = length;
        this.msn = msn;
        this.va = va;
        this.rkey = rkey;
        this.frame = frame;
        final long[] spans = pmtu.spans(length);
        minSpan = (int) Math.min(Integer.MAX_VALUE / 2, spans[0]);
        maxSpan = (int) Math.min(Integer.MAX_VALUE / 2, spans[1]);
    }

    /** True when the requester's view of the span is exact. */
    boolean spanKnown() {
        return minSpan == maxSpan;
    }

    /** Narrows the requester's view to its PMTU candidates. */
    void narrow(final Pmtu pmtu) {
        final long[] spans = pmtu.spans(length);
        if (maxSpan == 0) {
            return;
        }
        minSpan = (int) Math.max(minSpan, Math.min(Integer.MAX_VALUE / 2, spans[0]));
        maxSpan = (int) Math.max(minSpan, Math.min(maxSpan, Math.min(Integer.MAX_VALUE / 2, spans[1])));
    }

    /** The most PSNs the span may take as a responder with PMTU candidates {@code responder} sees it. */
    int limit(final Pmtu responder) {
        if (answeredSpan > 0) {
            return answeredSpan;
        }
        return (int) Math.max(maxSpan, Math.min(Integer.MAX_VALUE / 2, responder.spans(length)[1]));
    }

    /** True when {@code p} may lie in the span, as a responder with PMTU candidates {@code responder} sees it. */
    boolean holds(final int p, final Pmtu responder) {
        final int k = Psn.diff(p, psn);
        return k >= 0 && k < limit(responder);
    }
}
