package org.metaroce.mrct.socket.agent;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.metaroce.mrct.spi.Access;
import org.metaroce.mrct.spi.Completion;
import org.metaroce.mrct.spi.ControlPlane;
import org.metaroce.mrct.spi.MemoryRegion;
import org.metaroce.mrct.spi.QpAttributes;
import org.metaroce.mrct.spi.QpState;
import org.metaroce.mrct.spi.ReceiveWqe;
import org.metaroce.mrct.spi.RejectedException;
import org.metaroce.mrct.spi.SendWqe;

/** A control plane that records what it was asked and answers from fields the test sets. */
public final class FakeDevice implements ControlPlane {
    public final List<String> calls = new ArrayList<>();
    QpAttributes lastAttributes;
    ReceiveWqe lastReceive;
    SendWqe lastSend;
    byte[] lastWrite;
    long lastVa;
    List<Completion> completions = List.of();
    Map<String, Long> counters = new LinkedHashMap<>(Map.of("drop_bad_icrc", 3L));
    RuntimeException failure;
    int nextQpn = 0x100;
    int nextKey = 0x1000;

    private void call(final String what) {
        calls.add(what);
        if (failure != null) {
            final RuntimeException e = failure;
            throw e;
        }
    }

    @Override
    public int allocatePd() {
        call("allocatePd");
        return 7;
    }

    @Override
    public int createQp(final QpAttributes attributes) {
        call("createQp");
        lastAttributes = attributes;
        return nextQpn++;
    }

    @Override
    public void modifyQp(final int qpn, final QpState state, final QpAttributes attributes) {
        call("modifyQp " + Integer.toHexString(qpn) + " " + state);
        lastAttributes = attributes;
    }

    @Override
    public QpState queryQp(final int qpn) {
        call("queryQp");
        return QpState.RTS;
    }

    @Override
    public void destroyQp(final int qpn) {
        call("destroyQp " + Integer.toHexString(qpn));
    }

    @Override
    public MemoryRegion registerMr(final int pd, final long length, final Set<Access> access) {
        call("registerMr " + pd + " " + length);
        final int key = nextKey++;
        return new MemoryRegion(pd, 0xFFFF_8000_0000_1000L, length, key, key | 0x8000_0000, access);
    }

    @Override
    public void invalidateRkey(final int rkey) {
        call("invalidateRkey " + Integer.toUnsignedString(rkey, 16));
    }

    @Override
    public void deregisterMr(final int lkey) {
        call("deregisterMr " + Integer.toHexString(lkey));
    }

    @Override
    public void postReceive(final int qpn, final ReceiveWqe wqe) {
        call("postReceive");
        lastReceive = wqe;
    }

    @Override
    public void postSend(final int qpn, final SendWqe wqe) {
        call("postSend");
        lastSend = wqe;
    }

    @Override
    public List<Completion> pollCompletions(final int qpn, final int max) {
        call("pollCompletions " + max);
        return completions;
    }

    @Override
    public byte[] readMemory(final long va, final int length) {
        call("readMemory");
        lastVa = va;
        if (length > 1 << 20) {
            throw new RejectedException("outside every region");
        }
        final byte[] out = new byte[length];
        for (int i = 0; i < length; i++) {
            out[i] = (byte) (i * 7);
        }
        return out;
    }

    @Override
    public void writeMemory(final long va, final byte[] data) {
        call("writeMemory");
        lastVa = va;
        lastWrite = data.clone();
    }

    @Override
    public Map<String, Long> counters() {
        call("counters");
        return counters;
    }

    @Override
    public Map<String, Long> qpCounters(final int qpn) {
        call("qpCounters");
        return Map.of("ack_sent", 2L);
    }

    @Override
    public void reset() {
        call("reset");
    }
}
