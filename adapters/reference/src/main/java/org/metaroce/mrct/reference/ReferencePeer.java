package org.metaroce.mrct.reference;

import java.util.Map;
import java.util.Set;
import org.metaroce.mrct.reference.internal.Device;
import org.metaroce.mrct.reference.internal.DeviceConfig;
import org.metaroce.mrct.spi.CapturedFrame;
import org.metaroce.mrct.spi.ControlPlane;
import org.metaroce.mrct.spi.Endpoints;
import org.metaroce.mrct.spi.Peer;
import org.metaroce.mrct.spi.PeerFactory;

/**
 * The reference NIC as the harness's peer in requester cases: a conforming responder (the same code the responder
 * suite certifies) living at the harness's addresses.
 */
public final class ReferencePeer implements Peer {
    /** Creates reference peers. */
    public static final PeerFactory FACTORY = ReferencePeer::new;

    private final Device device;
    private final ControlPlane control;

    public ReferencePeer(final Endpoints endpoints, final Map<String, Object> parameters, final Set<String> pics) {
        this.device = new Device(new DeviceConfig(endpoints.harnessMac(), DeviceConfig.address(endpoints.harnessIpv4()),
            DeviceConfig.address(endpoints.harnessIpv6() == null ? "::1" : endpoints.harnessIpv6()), pics,
            parameters, Set.of()));
        this.control = device;
    }

    @Override
    public ControlPlane control() {
        return control;
    }

    @Override
    public void reset(final long now) {
        device.reset();
        device.scheduler().advanceTo(now);
    }

    @Override
    public void receive(final byte[] frame, final long timeNanos) {
        while (device.scheduler().runNext(timeNanos)) {
            // timers due before the frame arrives
        }
        device.scheduler().advanceTo(timeNanos);
        device.receive(frame.clone());
    }

    @Override
    public CapturedFrame poll(final long deadlineNanos) {
        while (device.outbox().isEmpty()) {
            if (!device.scheduler().runNext(deadlineNanos)) {
                device.scheduler().advanceTo(deadlineNanos);
                return null;
            }
        }
        return device.outbox().pollFirst();
    }

    @Override
    public long nextEventTime() {
        return device.outbox().isEmpty() ? device.scheduler().next() : device.scheduler().now();
    }

    @Override
    public void close() {
        device.reset();
    }
}
