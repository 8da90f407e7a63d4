package org.metaroce.mrct.spi;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A control plane that hands every call to another, so that an adapter or a test overrides only what it changes (a
 * reset that also clears the adapter's own state, a call that takes its time): the delegation written once, as
 * Guava's {@code ForwardingObject} family does it.
 */
public abstract class ForwardingControlPlane implements ControlPlane {
    private final ControlPlane delegate;

    protected ForwardingControlPlane(final ControlPlane delegate) {
        this.delegate = delegate;
    }

    /** The control plane every call goes to. */
    protected final ControlPlane delegate() {
        return delegate;
    }

    @Override
    public int allocatePd() {
        return delegate.allocatePd();
    }

    @Override
    public int createQp(final QpAttributes attributes) {
        return delegate.createQp(attributes);
    }

    @Override
    public void modifyQp(final int qpn, final QpState state, final QpAttributes attributes) {
        delegate.modifyQp(qpn, state, attributes);
    }

    @Override
    public QpState queryQp(final int qpn) {
        return delegate.queryQp(qpn);
    }

    @Override
    public void destroyQp(final int qpn) {
        delegate.destroyQp(qpn);
    }

    @Override
    public MemoryRegion registerMr(final int pd, final long length, final Set<Access> access) {
        return delegate.registerMr(pd, length, access);
    }

    @Override
    public void invalidateRkey(final int rkey) {
        delegate.invalidateRkey(rkey);
    }

    @Override
    public void deregisterMr(final int lkey) {
        delegate.deregisterMr(lkey);
    }

    @Override
    public void postReceive(final int qpn, final ReceiveWqe wqe) {
        delegate.postReceive(qpn, wqe);
    }

    @Override
    public void postSend(final int qpn, final SendWqe wqe) {
        delegate.postSend(qpn, wqe);
    }

    @Override
    public List<Completion> pollCompletions(final int qpn, final int max) {
        return delegate.pollCompletions(qpn, max);
    }

    @Override
    public byte[] readMemory(final long va, final int length) {
        return delegate.readMemory(va, length);
    }

    @Override
    public void writeMemory(final long va, final byte[] data) {
        delegate.writeMemory(va, data);
    }

    @Override
    public Map<String, Long> counters() {
        return delegate.counters();
    }

    @Override
    public Map<String, Long> qpCounters(final int qpn) {
        return delegate.qpCounters(qpn);
    }

    @Override
    public void reset() {
        delegate.reset();
    }
}
