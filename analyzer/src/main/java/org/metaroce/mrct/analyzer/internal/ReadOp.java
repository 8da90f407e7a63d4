package org.metaroce.mrct.analyzer.internal;

import org.metaroce.mrct.wire.Position;
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

    /**
     * TVer 0 (section 16.1): the PSN of the last READ REQUEST that asked for the rest of this read, or -1. A TVer 0
     * responder re-executes it as a read of its own, for the bytes its RETH names, starting at its own PSN: its first
     * response is a FIRST (or ONLY) there, whatever the position of that PSN in this read's span.
     */
    int restFrom = -1;
    /** The bytes the READ REQUEST at {@link #restFrom} asked for (its reth.dmalen). */
    long restLength;

    /** A TVer 0 READ REQUEST at {@code from} asked for the last {@code length} bytes of this read. */
    void askedRest(final int from, final long length) {
        restFrom = from;
        restLength = length;
    }

    /**
     * Packet {@code k} of a response of {@code nMin} to {@code nMax} packets (as the PMTU candidates allow) to the read
     * of {@code length} bytes from PSN {@code start}: the opcodes Table 8-1 allows it (MR-RD-003).
     */
    record Response(int start, long length, int k, long nMin, long nMax) {
        /** True when an opcode of {@code position} is the one Table 8-1 gives the packet. */
        boolean fits(final Position position) {
            final boolean mayBeLast = k + 1 >= nMin && k + 1 <= nMax;
            final boolean mustBeLast = nMin == nMax && k + 1 == nMax;
            return k == 0 ? (position == Position.ONLY ? mayBeLast : position == Position.FIRST && !mustBeLast)
                : (position == Position.LAST ? mayBeLast : position == Position.MIDDLE && !mustBeLast);
        }

        /** The opcode (or the two candidates) Table 8-1 gives the packet. */
        String expected() {
            if (nMin == nMax) {
                return nMax == 1 ? "RDMA_READ_RESPONSE_ONLY" : k == 0 ? "RDMA_READ_RESPONSE_FIRST"
                    : k + 1 == nMax ? "RDMA_READ_RESPONSE_LAST" : "RDMA_READ_RESPONSE_MIDDLE";
            }
            return k == 0 ? "RDMA_READ_RESPONSE_FIRST or ONLY" : "RDMA_READ_RESPONSE_MIDDLE or LAST";
        }

        /** The response's length in packets, as text. */
        String packets() {
            return nMin == nMax ? nMax + " packets long" : nMin + " to " + nMax + " packets long";
        }
    }

    /** The response on PSN {@code r} as a packet of this read's whole response, its span as far as known. */
    Response whole(final int r, final Pmtu pmtu) {
        final long[] spans = pmtu.spans(length);
        return new Response(psn, length, Psn.diff(r, psn), answeredSpan > 0 ? answeredSpan : spans[0],
            answeredSpan > 0 ? answeredSpan : spans[1]);
    }

    /**
     * The response on PSN {@code r} as a packet of the TVer 0 re-execution of the last READ REQUEST for the rest of
     * this read (section 16.1: a read of its own, from its PSN, ending where this read's span ends), or null when no
     * such request came or {@code r} lies before it.
     */
    Response rest(final int r, final Pmtu pmtu) {
        if (restFrom < 0 || Psn.isBefore(r, restFrom)) {
            return null;
        }
        final Response whole = whole(r, pmtu);
        final long[] spans = pmtu.spans(restLength);
        final int skipped = Psn.diff(restFrom, psn);
        long nMin = Math.max(spans[0], whole.nMin() - skipped);
        long nMax = Math.min(spans[1], whole.nMax() - skipped);
        if (nMin > nMax) {
            nMin = spans[0];
            nMax = spans[1];
        }
        return new Response(restFrom, restLength, Psn.diff(r, restFrom), nMin, nMax);
    }

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
