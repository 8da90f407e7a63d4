package org.metaroce.mrct.harness.result;

import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.metaroce.mrct.spi.Access;
import org.metaroce.mrct.spi.Completion;
import org.metaroce.mrct.spi.MemoryRegion;
import org.metaroce.mrct.spi.QpAttributes;
import org.metaroce.mrct.spi.QpState;
import org.metaroce.mrct.spi.ReceiveWqe;
import org.metaroce.mrct.spi.SendWqe;

/**
 * The plain-value form of control-plane calls that {@link ControlRecord}s hold: the arguments of each
 * {@code ControlPlane} method and its results as maps, lists, numbers, strings and booleans (bytes as hex, QP
 * attributes by their specification names, 32-bit keys unsigned). The harness records calls in this form, and the
 * replay of a recording compares the calls it is asked to make with it, so both sides use this one definition.
 */
public final class ControlCalls {
    private ControlCalls() {
    }

    private static Map<String, Object> args(final Object... pairs) {
        final Map<String, Object> map = new LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            map.put((String) pairs[i], pairs[i + 1]);
        }
        return map;
    }

    /** The arguments of a call without any ({@code allocatePd}, {@code counters}, {@code reset}). */
    public static Map<String, Object> none() {
        return Map.of();
    }

    public static Map<String, Object> createQp(final QpAttributes attributes) {
        return args("attributes", attributes(attributes));
    }

    public static Map<String, Object> modifyQp(final int qpn, final QpState state, final QpAttributes attributes) {
        return args("qpn", qpn, "state", state.name(), "attributes", attributes(attributes));
    }

    /** The arguments of {@code queryQp}, {@code destroyQp} and {@code qpCounters}. */
    public static Map<String, Object> qp(final int qpn) {
        return args("qpn", qpn);
    }

    public static Map<String, Object> registerMr(final int pd, final long length, final Set<Access> access) {
        return args("pd", pd, "length", length, "access", accessNames(access));
    }

    public static Map<String, Object> invalidateRkey(final int rkey) {
        return args("rkey", Integer.toUnsignedLong(rkey));
    }

    public static Map<String, Object> deregisterMr(final int lkey) {
        return args("lkey", Integer.toUnsignedLong(lkey));
    }

    public static Map<String, Object> postReceive(final int qpn, final ReceiveWqe wqe) {
        return args("qpn", qpn, "wr_id", wqe.wrId(), "va", wqe.va(), "length", wqe.length(), "lkey",
            Integer.toUnsignedLong(wqe.lkey()));
    }

    public static Map<String, Object> postSend(final int qpn, final SendWqe wqe) {
        return args("qpn", qpn, "wr_id", wqe.wrId(), "opcode", wqe.opcode().name(), "local_va", wqe.localVa(),
            "length", wqe.length(), "lkey", Integer.toUnsignedLong(wqe.lkey()), "remote_va", wqe.remoteVa(), "rkey",
            Integer.toUnsignedLong(wqe.rkey()), "immediate", Integer.toUnsignedLong(wqe.immediate()), "compare_add",
            wqe.compareAdd(), "swap", wqe.swap(), "signaled", wqe.signaled(), "fence", wqe.fence(), "solicited",
            wqe.solicited());
    }

    public static Map<String, Object> pollCompletions(final int qpn, final int max) {
        return args("qpn", qpn, "max", max);
    }

    public static Map<String, Object> readMemory(final long va, final int length) {
        return args("va", va, "length", length);
    }

    public static Map<String, Object> writeMemory(final long va, final byte[] data) {
        return args("va", va, "data", HexFormat.of().formatHex(data));
    }

    /** QP attributes as a map of attribute names to plain values. */
    public static Map<String, Object> attributes(final QpAttributes attributes) {
        final Map<String, Object> out = new LinkedHashMap<>();
        attributes.asMap().forEach((key, value) -> out.put(key.label(), value instanceof Set<?> set
            ? accessNames(set) : value));
        return out;
    }

    /** Access rights as their sorted labels. */
    public static List<String> accessNames(final Set<?> set) {
        final Set<String> names = new TreeSet<>();
        for (final Object right : set) {
            names.add(((Access) right).label());
        }
        return new ArrayList<>(names);
    }

    /** A registered region, the result of {@code registerMr}. */
    public static Map<String, Object> region(final MemoryRegion mr) {
        return args("pd", mr.pd(), "va", mr.va(), "length", mr.length(), "lkey", Integer.toUnsignedLong(mr.lkey()),
            "rkey", Integer.toUnsignedLong(mr.rkey()), "access", accessNames(mr.access()));
    }

    /** One completion of the result of {@code pollCompletions}. */
    public static Map<String, Object> completion(final Completion c) {
        return args("qpn", c.qpn(), "wr_id", c.wrId(), "opcode", c.opcode().name(), "status", c.status().name(),
            "byte_length", c.byteLength(), "immediate", c.hasImmediate() ? Integer.toUnsignedLong(c.immediate())
                : null, "invalidated_rkey", c.hasInvalidate() ? Integer.toUnsignedLong(c.invalidatedRkey()) : null,
            "solicited", c.solicited(), "timestamp_ns", c.timestampNanos());
    }

    /**
     * The arguments of {@code writeMemory} as the harness's journal records them: the data as {@link HexBytes}, whose
     * text is the hex {@link #writeMemory} gives (the reports write it so), formatted only when a report needs it.
     */
    public static Map<String, Object> writeMemoryRecorded(final long va, final byte[] data) {
        return args("va", va, "data", new HexBytes(data));
    }

    /** Memory as hex, the result of {@code readMemory}. */
    public static String bytes(final byte[] bytes) {
        return HexFormat.of().formatHex(bytes);
    }
}
