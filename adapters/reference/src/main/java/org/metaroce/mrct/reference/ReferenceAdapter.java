package org.metaroce.mrct.reference;

import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import org.metaroce.mrct.harness.profile.DeviceProfile;
import org.metaroce.mrct.harness.spec.Specification;
import org.metaroce.mrct.reference.internal.Device;
import org.metaroce.mrct.reference.internal.DeviceConfig;
import org.metaroce.mrct.spi.Adapter;
import org.metaroce.mrct.spi.Capability;
import org.metaroce.mrct.spi.CapturedFrame;
import org.metaroce.mrct.spi.ControlPlane;
import org.metaroce.mrct.spi.DataPlane;
import org.metaroce.mrct.spi.DeviceIdentity;
import org.metaroce.mrct.spi.Endpoints;

/**
 * The reference NIC behind the adapter SPI, in the harness's own process and on virtual time: frames are processed
 * the instant they are sent, timers fire as the harness polls, and every case against it is exact and deterministic.
 */
public final class ReferenceAdapter implements Adapter {
    /** Addresses of the reference NIC and of the harness on its virtual link (documentation ranges). */
    public static final Endpoints ENDPOINTS = new Endpoints(0x02_00_00_00_00_0DL, "198.51.100.2", "2001:db8::2",
        0x02_00_00_00_00_0AL, "198.51.100.1", "2001:db8::1");

    private final Device device;
    private final Set<Fault> faults;
    private final DataPlane data = new Data();
    private final ControlPlane control;

    /** A reference NIC with these declared parameters, PICS claims and faults. */
    public ReferenceAdapter(final Map<String, Object> parameters, final Set<String> pics, final Set<Fault> faults) {
        this.faults = faults.isEmpty() ? Set.of() : EnumSet.copyOf(faults);
        this.device = new Device(new DeviceConfig(ENDPOINTS.deviceMac(),
            DeviceConfig.address(ENDPOINTS.deviceIpv4()), DeviceConfig.address(ENDPOINTS.deviceIpv6()), pics,
            parameters, this.faults));
        this.control = device;
    }

    /** A reference NIC configured from a DUT profile (parameters over the specification's defaults). */
    public static ReferenceAdapter fromProfile(final DeviceProfile profile, final Specification spec,
                                               final Set<Fault> faults) {
        return new ReferenceAdapter(profile.effectiveParameters(spec), profile.pics(), faults);
    }

    /** Class-path resource of the reference NIC's own DUT profile ({@code fixtures/profiles/reference.yaml}). */
    public static final String PROFILE_RESOURCE = "/org/metaroce/mrct/reference/reference.yaml";

    /** The faults this instance runs with. */
    public Set<Fault> faults() {
        return faults;
    }

    /** A QP's own counters (Appendix C, per QP), for tests and diagnostics. */
    public Map<String, Long> qpCounters(final int qpn) {
        return device.qpCounters(qpn);
    }

    @Override
    public String name() {
        return "reference";
    }

    @Override
    public Set<Capability> capabilities() {
        return EnumSet.of(Capability.VIRTUAL_TIME, Capability.MEMORY_READBACK, Capability.MEMORY_WRITE,
            Capability.COUNTERS, Capability.COMPLETIONS, Capability.REQUESTER_CONTROL, Capability.RAW_FRAMES, Capability.ECN_READ,
            Capability.ECN_WRITE, Capability.L2_CONTROL, Capability.IPV6, Capability.SCALE_QPS);
    }

    @Override
    public DeviceIdentity identity() {
        return new DeviceIdentity("MetaRoCE project", "mrct reference NIC", "1.0");
    }

    @Override
    public Endpoints endpoints() {
        return ENDPOINTS;
    }

    @Override
    public DataPlane dataPlane() {
        return data;
    }

    @Override
    public ControlPlane controlPlane() {
        return control;
    }

    @Override
    public void close() {
        device.reset();
    }

    private final class Data implements DataPlane {
        @Override
        public long now() {
            return device.scheduler().now();
        }

        @Override
        public void send(final byte[] frame) {
            // No copy: the device handles the frame before it returns and keeps no reference to it (payloads are
            // copied into memory regions, recorded packets copy their fields), so the caller may reuse the array.
            device.receive(frame);
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
    }
}
