package org.metaroce.mrct.cli;

import java.util.Set;
import org.metaroce.mrct.spi.Adapter;
import org.metaroce.mrct.spi.Capability;
import org.metaroce.mrct.spi.ControlPlane;
import org.metaroce.mrct.spi.DataPlane;
import org.metaroce.mrct.spi.DeviceIdentity;
import org.metaroce.mrct.spi.DeviceTimeline;
import org.metaroce.mrct.spi.Endpoints;

/** An adapter that hands every call to another; a test overrides only what it changes. */
abstract class ForwardingAdapter implements Adapter {
    final Adapter inner;

    ForwardingAdapter(final Adapter inner) {
        this.inner = inner;
    }

    @Override
    public String name() {
        return inner.name();
    }

    @Override
    public Set<Capability> capabilities() {
        return inner.capabilities();
    }

    @Override
    public DeviceIdentity identity() {
        return inner.identity();
    }

    @Override
    public Endpoints endpoints() {
        return inner.endpoints();
    }

    @Override
    public DataPlane dataPlane() {
        return inner.dataPlane();
    }

    @Override
    public ControlPlane controlPlane() {
        return inner.controlPlane();
    }

    @Override
    public void beginCase(final String caseId) {
        inner.beginCase(caseId);
    }

    @Override
    public String evidenceProblem() {
        return inner.evidenceProblem();
    }

    @Override
    public DeviceTimeline deviceTimeline() {
        return inner.deviceTimeline();
    }

    @Override
    public void close() {
        inner.close();
    }
}
