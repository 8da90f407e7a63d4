package org.metaroce.mrct.harness.engine;

import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;
import org.metaroce.mrct.harness.result.ControlRecord;
import org.metaroce.mrct.spi.Access;
import org.metaroce.mrct.spi.AdapterException;
import org.metaroce.mrct.spi.Completion;
import org.metaroce.mrct.spi.ControlPlane;
import org.metaroce.mrct.spi.DataPlane;
import org.metaroce.mrct.spi.MemoryRegion;
import org.metaroce.mrct.spi.QpAttributes;
import org.metaroce.mrct.spi.QpState;
import org.metaroce.mrct.spi.ReceiveWqe;
import org.metaroce.mrct.spi.RejectedException;
import org.metaroce.mrct.spi.SendWqe;

/**
 * A {@link ControlPlane} that records every call and its outcome as a {@link ControlRecord} before handing the result
 * back, so a case's result holds everything the device told the harness. The records use plain values only (maps,
 * lists, numbers, strings; bytes as hex), the form the JSON report and the evidence file store.
 */
final class ControlJournal implements ControlPlane {
    private final ControlPlane delegate;
    private final DataPlane clock;
    private final long start;
    private final List<ControlRecord> records = new ArrayList<>();

    ControlJournal(final ControlPlane delegate, final DataPlane clock, final long start) {
        this.delegate = delegate;
        this.clock = clock;
        this.start = start;
    }

    List<ControlRecord> records() {
        return records;
    }

    private <T> T call(final String op, final Map<String, Object> args, final Supplier<T> action,
                       final java.util.function.Function<T, Object> encode) {
        final long at = clock.now() - start;
        try {
            final T result = action.get();
            records.add(new ControlRecord(records.size(), at, op, args, encode.apply(result), null));
            return result;
        } catch (RejectedException e) {
            records.add(new ControlRecord(records.size(), at, op, args, null, "rejected: " + e.getMessage()));
            throw e;
        } catch (UnsupportedOperationException e) {
            records.add(new ControlRecord(records.size(), at, op, args, null, "unsupported: " + e.getMessage()));
            throw e;
        } catch (AdapterException e) {
            records.add(new ControlRecord(records.size(), at, op, args, null, "adapter: " + e.getMessage()));
            throw e;
        }
    }

    private void run(final String op, final Map<String, Object> args, final Runnable action) {
        call(op, args, () -> {
            action.run();
            return null;
        }, r -> null);
    }

    private static Map<String, Object> args(final Object... pairs) {
        final Map<String, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            map.put((String) pairs[i], pairs[i + 1]);
        }
        return map;
    }

    /** QP attributes as a map of attribute names to plain values. */
    static Map<String, Object> attributes(final QpAttributes attributes) {
        final Map<String, Object> out = new LinkedHashMap<>();
        attributes.asMap().forEach((key, value) -> out.put(key.label(), value instanceof Set<?> set
            ? accessNames(set) : value));
        return out;
    }

    private static List<String> accessNames(final Set<?> set) {
        final Set<String> names = new TreeSet<>();
        for (final Object right : set) {
            names.add(((Access) right).label());
        }
        return new ArrayList<>(names);
    }

    static Map<String, Object> region(final MemoryRegion mr) {
        return args("pd", mr.pd(), "va", mr.va(), "length", mr.length(), "lkey", Integer.toUnsignedLong(mr.lkey()),
            "rkey", Integer.toUnsignedLong(mr.rkey()), "access", accessNames(mr.access()));
    }

    static Map<String, Object> completion(final Completion c) {
        return args("qpn", c.qpn(), "wr_id", c.wrId(), "opcode", c.opcode().name(), "status", c.status().name(),
            "byte_length", c.byteLength(), "immediate", c.hasImmediate() ? Integer.toUnsignedLong(c.immediate())
                : null, "invalidated_rkey", c.hasInvalidate() ? Integer.toUnsignedLong(c.invalidatedRkey()) : null,
            "solicited", c.solicited(), "timestamp_ns", c.timestampNanos());
    }

    @Override
    public int allocatePd() {
        return call("allocatePd", Map.of(), delegate::allocatePd, r -> r);
    }

    @Override
    public int createQp(final QpAttributes attributes) {
        return call("createQp", args("attributes", attributes(attributes)), () -> delegate.createQp(attributes),
            r -> r);
    }

    @Override
    public void modifyQp(final int qpn, final QpState state, final QpAttributes attributes) {
        run("modifyQp", args("qpn", qpn, "state", state.name(), "attributes", attributes(attributes)),
            () -> delegate.modifyQp(qpn, state, attributes));
    }

    @Override
    public QpState queryQp(final int qpn) {
        return call("queryQp", args("qpn", qpn), () -> delegate.queryQp(qpn), Enum::name);
    }

    @Override
    public void destroyQp(final int qpn) {
        run("destroyQp", args("qpn", qpn), () -> delegate.destroyQp(qpn));
    }

    @Override
    public MemoryRegion registerMr(final int pd, final long length, final Set<Access> access) {
        return call("registerMr", args("pd", pd, "length", length, "access", accessNames(access)),
            () -> delegate.registerMr(pd, length, access), ControlJournal::region);
    }

    @Override
    public void invalidateRkey(final int rkey) {
        run("invalidateRkey", args("rkey", Integer.toUnsignedLong(rkey)), () -> delegate.invalidateRkey(rkey));
    }

    @Override
    public void deregisterMr(final int lkey) {
        run("deregisterMr", args("lkey", Integer.toUnsignedLong(lkey)), () -> delegate.deregisterMr(lkey));
    }

    @Override
    public void postReceive(final int qpn, final ReceiveWqe wqe) {
        run("postReceive", args("qpn", qpn, "wr_id", wqe.wrId(), "va", wqe.va(), "length", wqe.length(), "lkey",
            Integer.toUnsignedLong(wqe.lkey())), () -> delegate.postReceive(qpn, wqe));
    }

    @Override
    public void postSend(final int qpn, final SendWqe wqe) {
        run("postSend", args("qpn", qpn, "wr_id", wqe.wrId(), "opcode", wqe.opcode().name(), "local_va",
            wqe.localVa(), "length", wqe.length(), "lkey", Integer.toUnsignedLong(wqe.lkey()), "remote_va",
            wqe.remoteVa(), "rkey", Integer.toUnsignedLong(wqe.rkey()), "immediate",
            Integer.toUnsignedLong(wqe.immediate()), "compare_add", wqe.compareAdd(), "swap", wqe.swap(), "signaled",
            wqe.signaled(), "fence", wqe.fence(), "solicited", wqe.solicited()), () -> delegate.postSend(qpn, wqe));
    }

    @Override
    public List<Completion> pollCompletions(final int qpn, final int max) {
        return call("pollCompletions", args("qpn", qpn, "max", max), () -> delegate.pollCompletions(qpn, max),
            list -> list.stream().map(ControlJournal::completion).toList());
    }

    @Override
    public byte[] readMemory(final long va, final int length) {
        return call("readMemory", args("va", va, "length", length), () -> delegate.readMemory(va, length),
            bytes -> HexFormat.of().formatHex(bytes));
    }

    @Override
    public void writeMemory(final long va, final byte[] data) {
        run("writeMemory", args("va", va, "data", HexFormat.of().formatHex(data)),
            () -> delegate.writeMemory(va, data));
    }

    @Override
    public Map<String, Long> counters() {
        return call("counters", Map.of(), delegate::counters, LinkedHashMap::new);
    }

    @Override
    public Map<String, Long> qpCounters(final int qpn) {
        return call("qpCounters", args("qpn", qpn), () -> delegate.qpCounters(qpn), LinkedHashMap::new);
    }

    @Override
    public void reset() {
        run("reset", Map.of(), delegate::reset);
    }
}
