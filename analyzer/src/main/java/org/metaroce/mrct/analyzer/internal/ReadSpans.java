package org.metaroce.mrct.analyzer.internal;

import java.util.ArrayDeque;
import java.util.Iterator;
import org.metaroce.mrct.harness.result.FieldDiff;
import org.metaroce.mrct.wire.Psn;

/**
 * The READs one QP's requester sent, and the PSN spans they take: a READ REQUEST takes one PSN per response, a
 * number its requester's PMTU decides, so a span is known between bounds until the next new request, a response or
 * a narrower PMTU tells where it ends. {@link RequesterStream} asks which READ a re-request or a response belongs to.
 */
final class ReadSpans {
    /** READs remembered at most (max_rd_atomic is at most 255). */
    static final int READS = 1024;

    private final RequesterStream stream;
    private final Flow flow;
    private final ArrayDeque<ReadOp> reads = new ArrayDeque<>();
    /** The last READ, while its span's end is not known yet. */
    private ReadOp openSpan;

    ReadSpans(final RequesterStream stream) {
        this.stream = stream;
        this.flow = stream.flow;
    }

    /** Forgets every READ: a new incarnation of the QP. */
    void restart() {
        openSpan = null;
        reads.clear();
    }

    /** The responder's answers start afresh: no READ has had a response yet. */
    void forgetResponses() {
        for (final ReadOp read : reads) {
            read.answered = 0;
        }
    }

    /** The READ, latest first, whose span may hold {@code psn} as the responder's PMTU allows; or null. */
    ReadOp holding(final int psn, final Pmtu pmtu) {
        for (final Iterator<ReadOp> it = reads.descendingIterator(); it.hasNext(); ) {
            final ReadOp read = it.next();
            if (read.holds(psn, pmtu)) {
                return read;
            }
        }
        return null;
    }

    /** True when {@code psn} may lie in the span of a READ seen, as the responder's PMTU allows. */
    boolean mayHold(final int psn, final Pmtu responder) {
        return holding(psn, responder) != null;
    }

    /** True when {@code psn} may lie in the span of a READ seen, as its requester may segment the read. */
    boolean requesterSpanHolds(final int psn) {
        for (final Iterator<ReadOp> it = reads.descendingIterator(); it.hasNext(); ) {
            final ReadOp read = it.next();
            final int k = Psn.diff(psn, read.psn);
            if (k >= 0 && k < Math.max(read.maxSpan, read.answeredSpan)) {
                return true;
            }
        }
        return false;
    }

    /** Leaves {@code read}'s span open while its end is not known: the next new request will close it. */
    void openUntilKnown(final ReadOp read) {
        if (!read.spanKnown()) {
            openSpan = read;
        }
    }

    /** A new request at {@code fr.psn}: if it lies past the open READ, that READ's span ends before it. */
    void closeBefore(final Frame fr, final Context cx) {
        if (openSpan != null && Psn.diff(fr.psn, openSpan.psn) > 0) {
            closeSpan(fr, cx);
        }
    }

    /** A re-request of {@code read} from PSN {@code k} of its span: the open span reaches at least that far. */
    void reachedBy(final ReadOp read, final int k) {
        if (read == openSpan && k + 1 > read.minSpan) {
            read.minSpan = Math.min(read.maxSpan, k + 1);
        }
    }

    /** Remembers the READ a first transmission of a READ REQUEST asks for. */
    ReadOp add(final Frame fr) {
        final ReadOp read = new ReadOp(fr.psn, fr.readLength(), fr.hasPleth() ? fr.plethMsn() : 0,
            fr.decoded.reth().va(), fr.decoded.reth().rkey(), fr.number, flow.pmtu);
        reads.addLast(read);
        while (reads.size() > READS) {
            reads.removeFirst();
        }
        return read;
    }

    /**
     * The READ a READ REQUEST asks for again, if any: TVer 1, the same pleth.msn and RETH; TVer 0, the same R_Key
     * and the same end of the read, the address advanced by whole packets (a TVer 0 re-request asks for the rest of
     * the read; the same READ again at a later PSN is a new read). Its PSN must lie in the span.
     */
    ReadOp matching(final Frame fr) {
        final long va = fr.decoded.reth().va();
        final int rkey = fr.decoded.reth().rkey();
        final long length = fr.readLength();
        for (final Iterator<ReadOp> it = reads.descendingIterator(); it.hasNext(); ) {
            final ReadOp read = it.next();
            final int k = Psn.diff(fr.psn, read.psn);
            if (k < 0 || k >= Math.max(read.maxSpan, read.answeredSpan)) {
                continue;
            }
            final boolean same = fr.tver == 1 && fr.hasPleth()
                ? fr.plethMsn() == read.msn && va == read.va && rkey == read.rkey && length == read.length
                : rkey == read.rkey && va + length == read.va + read.length
                    && (k == 0 ? va == read.va : va > read.va && (va - read.va) % k == 0);
            if (same) {
                return read;
            }
        }
        return null;
    }

    /** Marks {@code [from, from + n)} as part of a READ span (the READ's own PSN included). */
    void markSpan(final int from, final int n) {
        final PsnRing ring = stream.ring;
        if (!ring.holds(from)) {
            return;
        }
        final int s0 = ring.slot(from);
        final int count = Math.min(n, ring.capacity());
        for (int i = 1; i < count; i++) {
            final int psn = Psn.add(from, i);
            if (!ring.holds(psn)) {
                continue;
            }
            final int s = ring.slot(psn);
            if ((ring.flags[s] & PsnRing.SENT) == 0) {
                ring.flags[s] |= PsnRing.READ_SPAN;
                ring.opcode[s] = ring.opcode[s0];
                ring.msn[s] = ring.msn[s0];
                ring.rsn[s] = 0;
                ring.payload[s] = 0;
            }
        }
    }

    /** The next new request after a READ whose span was uncertain tells where the span ends. */
    private void closeSpan(final Frame fr, final Context cx) {
        final ReadOp read = openSpan;
        openSpan = null;
        final int k = Psn.diff(fr.psn, read.psn);
        final Connection c = flow.connection;
        if (k < read.minSpan) {
            final int n = read.minSpan;
            Judge.observe(c, flow, Check.PSN_CONSECUTIVE);
            cx.judge.report(c, flow, Check.PSN_CONSECUTIVE, Basis.DEFINITE, fr,
                () -> fr.opcode.name() + " at PSN " + Text.psn(fr.psn) + " lies inside the span of the READ of "
                    + read.length + " bytes at PSN " + Text.psn(read.psn) + " (frame " + read.frame + "), which takes "
                    + n + " PSNs or more with any PMTU its requester may use",
                null, new FieldDiff("bth.psn", "at least " + Text.psn(Psn.add(read.psn, n)), Text.psn(fr.psn)));
            return;
        }
        final int end = Math.min(k, read.maxSpan);
        read.minSpan = Math.max(read.minSpan, Math.min(end, read.maxSpan));
        final int newNext = Psn.add(read.psn, end);
        if (Psn.isAfter(newNext, stream.next)) {
            stream.advanceNext(newNext, cx);
        }
        markSpan(read.psn, end);
    }

    /**
     * A response on PSN {@code r} of {@code read}'s span, beyond the PSNs the requester's span was known to cover: the
     * span reaches at least that far (both ends segment a read by the connection's PMTU), so the PSNs up to {@code r}
     * are the read's, and the response can deliver {@code r}. Nothing is done beyond the largest span the requester
     * may use.
     */
    void cover(final ReadOp read, final int r, final Context cx) {
        final int k = Psn.diff(r, read.psn);
        if (!stream.started || k < 0 || k >= read.maxSpan || Psn.isBefore(r, stream.next)) {
            return;
        }
        if (read == openSpan && k + 1 > read.minSpan) {
            read.minSpan = k + 1;
        }
        stream.advanceNext(Psn.add(r, 1), cx);
        markSpan(read.psn, k + 1);
    }

    /** The requester's PMTU candidates narrowed: so do the spans of the reads it sent. */
    void narrow() {
        if (reads.isEmpty()) {
            return; // no iterator for a stream without reads open: many data packets narrow the PMTU
        }
        for (final ReadOp read : reads) {
            read.narrow(flow.pmtu);
        }
    }
}
