package org.metaroce.mrct.cli;

import java.util.EnumSet;
import java.util.Set;
import org.metaroce.mrct.reference.ReferenceAdapter;
import org.metaroce.mrct.spi.Capability;
import org.metaroce.mrct.spi.CapturedFrame;
import org.metaroce.mrct.spi.DataPlane;

/**
 * The reference NIC on its virtual clock presented as a real-time adapter (no VIRTUAL_TIME), so that the harness
 * treats it as a device on a live link while every moment stays exact; a test overrides what it makes late or lost.
 */
abstract class RealTimeReference extends ForwardingAdapter implements DataPlane {
    RealTimeReference(final ReferenceAdapter inner) {
        super(inner);
    }

    @Override
    public long now() {
        return inner.dataPlane().now();
    }

    @Override
    public void send(final byte[] frame) {
        inner.dataPlane().send(frame);
    }

    @Override
    public CapturedFrame poll(final long deadlineNanos) {
        return inner.dataPlane().poll(deadlineNanos);
    }

    @Override
    public Set<Capability> capabilities() {
        final Set<Capability> out = EnumSet.copyOf(inner.capabilities());
        out.remove(Capability.VIRTUAL_TIME);
        return out;
    }

    @Override
    public DataPlane dataPlane() {
        return this;
    }
}
