package org.metaroce.mrct.harness.engine;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.IntSupplier;
import java.util.function.Supplier;
import org.metaroce.mrct.harness.result.ControlCalls;
import org.metaroce.mrct.harness.result.ControlRecord;
import org.metaroce.mrct.harness.result.HexBytes;
import org.metaroce.mrct.spi.Access;
import org.metaroce.mrct.spi.AdapterException;
import org.metaroce.mrct.spi.Completion;
import org.metaroce.mrct.spi.ControlPlane;
import org.metaroce.mrct.spi.DataPlane;
import org.metaroce.mrct.spi.EvidenceUnavailableException;
import org.metaroce.mrct.spi.MemoryRegion;
import org.metaroce.mrct.spi.QpAttributes;
import org.metaroce.mrct.spi.QpState;
import org.metaroce.mrct.spi.ReceiveWqe;
import org.metaroce.mrct.spi.RejectedException;
import org.metaroce.mrct.spi.SendWqe;

/**
 * A {@link ControlPlane} that records every call and its outcome as a {@link ControlRecord} before handing the result
 * back, so a case's result holds everything the device told the harness. The records use plain values only (maps,
 * lists, numbers, strings; bytes as {@link HexBytes}, whose text is their hex), the form the JSON report and the
 * evidence file store.
 */
final class ControlJournal implements ControlPlane {
    private final ControlPlane delegate;
    private final DataPlane clock;
    private long start;
    private final IntSupplier frames;
    private final java.util.function.Consumer<String> onCall;
    private final java.util.function.Consumer<String> returned;
    private final List<ControlRecord> records = new ArrayList<>();

    /**
     * @param frames how many frames the case's evidence holds (each record notes it, which orders the calls among
     *     the frames)
     * @param onCall told before every call, with the operation's name (the case's timeline is not the harness's to
     *     keep across a call)
     * @param returned told after every call that returned or threw, with the operation's name
     */
    ControlJournal(final ControlPlane delegate, final DataPlane clock, final long start, final IntSupplier frames,
                   final java.util.function.Consumer<String> onCall,
                   final java.util.function.Consumer<String> returned) {
        this.delegate = delegate;
        this.clock = clock;
        this.start = start;
        this.frames = frames;
        this.onCall = onCall;
        this.returned = returned;
    }

    List<ControlRecord> records() {
        return records;
    }

    /**
     * The case's time zero is {@code caseStart} (the adapter's clock), not the moment the journal was made: the case
     * starts after its reset, and its frames are timed from there. The calls recorded so far (the reset) are moved to
     * that base, so a call before time zero has a negative time; every call's time is comparable with the frames'
     * (until 2026-12-03 they were not: a report's post_send seemed to come up to milliseconds after the frames it
     * caused).
     */
    void startAt(final long caseStart) {
        final long shift = caseStart - start;
        start = caseStart;
        records.replaceAll(r -> new ControlRecord(r.index(), r.timestampNanos() - shift, r.op(), r.args(),
            r.result(), r.error(), r.framesBefore()));
    }

    private <T> T call(final String op, final Map<String, Object> args, final Supplier<T> action,
                       final java.util.function.Function<T, Object> encode) {
        onCall.accept(op);
        final long at = clock.now() - start;
        final int before = frames.getAsInt();
        try {
            final T result = action.get();
            add(at, op, args, encode.apply(result), null, before);
            return result;
        } catch (RejectedException e) {
            add(at, op, args, null, "rejected: " + e.getMessage(), before);
            throw e;
        } catch (UnsupportedOperationException e) {
            add(at, op, args, null, "unsupported: " + e.getMessage(), before);
            throw e;
        } catch (EvidenceUnavailableException e) {
            add(at, op, args, null, "unavailable: " + e.getMessage(), before);
            throw e;
        } catch (AdapterException e) {
            add(at, op, args, null, "adapter: " + e.getMessage(), before);
            throw e;
        } finally {
            returned.accept(op);
        }
    }

    private void add(final long at, final String op, final Map<String, Object> args, final Object result,
                     final String error, final int before) {
        records.add(new ControlRecord(records.size(), at, op, args, result, error, before));
    }

    private void run(final String op, final Map<String, Object> args, final Runnable action) {
        call(op, args, () -> {
            action.run();
            return null;
        }, r -> null);
    }

    @Override
    public int allocatePd() {
        return call("allocatePd", ControlCalls.none(), delegate::allocatePd, r -> r);
    }

    @Override
    public int createQp(final QpAttributes attributes) {
        return call("createQp", ControlCalls.createQp(attributes), () -> delegate.createQp(attributes), r -> r);
    }

    @Override
    public void modifyQp(final int qpn, final QpState state, final QpAttributes attributes) {
        run("modifyQp", ControlCalls.modifyQp(qpn, state, attributes), () -> delegate.modifyQp(qpn, state, attributes));
    }

    @Override
    public QpState queryQp(final int qpn) {
        return call("queryQp", ControlCalls.qp(qpn), () -> delegate.queryQp(qpn), Enum::name);
    }

    @Override
    public void destroyQp(final int qpn) {
        run("destroyQp", ControlCalls.qp(qpn), () -> delegate.destroyQp(qpn));
    }

    @Override
    public MemoryRegion registerMr(final int pd, final long length, final Set<Access> access) {
        return call("registerMr", ControlCalls.registerMr(pd, length, access),
            () -> delegate.registerMr(pd, length, access), ControlCalls::region);
    }

    @Override
    public void invalidateRkey(final int rkey) {
        run("invalidateRkey", ControlCalls.invalidateRkey(rkey), () -> delegate.invalidateRkey(rkey));
    }

    @Override
    public void deregisterMr(final int lkey) {
        run("deregisterMr", ControlCalls.deregisterMr(lkey), () -> delegate.deregisterMr(lkey));
    }

    @Override
    public void postReceive(final int qpn, final ReceiveWqe wqe) {
        run("postReceive", ControlCalls.postReceive(qpn, wqe), () -> delegate.postReceive(qpn, wqe));
    }

    @Override
    public void postSend(final int qpn, final SendWqe wqe) {
        run("postSend", ControlCalls.postSend(qpn, wqe), () -> delegate.postSend(qpn, wqe));
    }

    @Override
    public List<Completion> pollCompletions(final int qpn, final int max) {
        return call("pollCompletions", ControlCalls.pollCompletions(qpn, max),
            () -> delegate.pollCompletions(qpn, max), list -> list.stream().map(ControlCalls::completion).toList());
    }

    @Override
    public byte[] readMemory(final long va, final int length) {
        return call("readMemory", ControlCalls.readMemory(va, length), () -> delegate.readMemory(va, length),
            HexBytes::new);
    }

    @Override
    public void writeMemory(final long va, final byte[] data) {
        run("writeMemory", ControlCalls.writeMemoryRecorded(va, data), () -> delegate.writeMemory(va, data));
    }

    @Override
    public Map<String, Long> counters() {
        return call("counters", ControlCalls.none(), delegate::counters, LinkedHashMap::new);
    }

    @Override
    public Map<String, Long> qpCounters(final int qpn) {
        return call("qpCounters", ControlCalls.qp(qpn), () -> delegate.qpCounters(qpn), LinkedHashMap::new);
    }

    @Override
    public void reset() {
        run("reset", ControlCalls.none(), delegate::reset);
    }
}
