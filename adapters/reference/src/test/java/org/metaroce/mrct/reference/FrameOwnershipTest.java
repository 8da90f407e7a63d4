package org.metaroce.mrct.reference;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.metaroce.mrct.spi.Access;
import org.metaroce.mrct.spi.CapturedFrame;
import org.metaroce.mrct.spi.ControlPlane;
import org.metaroce.mrct.spi.DataPlane;
import org.metaroce.mrct.spi.MemoryRegion;
import org.metaroce.mrct.spi.QpAttribute;
import org.metaroce.mrct.spi.QpAttributes;
import org.metaroce.mrct.spi.QpState;
import org.metaroce.mrct.wire.DecodedFrame;
import org.metaroce.mrct.wire.Encapsulation;
import org.metaroce.mrct.wire.FrameBuilder;
import org.metaroce.mrct.wire.FrameDecoder;
import org.metaroce.mrct.wire.Opcode;

/**
 * The reference NIC does not copy the frames it is sent: it must be done with a frame when {@code send} returns, so
 * a caller that overwrites its array afterwards changes nothing, in order or out of order.
 */
class FrameOwnershipTest {
    private final ReferenceAdapter nic = new ReferenceAdapter(Map.of(), Set.of(), Set.of());
    private final ControlPlane control = nic.controlPlane();
    private final DataPlane data = nic.dataPlane();
    private final MemoryRegion mr;
    private final int qpn;

    FrameOwnershipTest() {
        final int pd = control.allocatePd();
        mr = control.registerMr(pd, 4096, Set.of(Access.LOCAL_WRITE, Access.REMOTE_WRITE));
        final QpAttributes attributes = QpAttributes.empty().with(QpAttribute.PD, pd)
            .with(QpAttribute.DEST_IP, ReferenceAdapter.ENDPOINTS.harnessIpv4())
            .with(QpAttribute.DEST_MAC, ReferenceAdapter.ENDPOINTS.harnessMac()).with(QpAttribute.DEST_QPN, 0x321)
            .with(QpAttribute.RQ_PSN, 0).with(QpAttribute.SQ_PSN, 0).with(QpAttribute.PMTU, 1024)
            .with(QpAttribute.ACCESS, Set.of(Access.REMOTE_WRITE));
        qpn = control.createQp(attributes);
        control.modifyQp(qpn, QpState.INIT, attributes);
        control.modifyQp(qpn, QpState.RTR, QpAttributes.empty());
        control.modifyQp(qpn, QpState.RTS, QpAttributes.empty());
    }

    private byte[] write(final int psn, final byte fill, final boolean ackReq) {
        final Encapsulation e = Encapsulation.ipv4(ReferenceAdapter.ENDPOINTS.harnessIpv4(),
            ReferenceAdapter.ENDPOINTS.deviceIpv4()).withMacs(ReferenceAdapter.ENDPOINTS.harnessMac(),
                ReferenceAdapter.ENDPOINTS.deviceMac());
        final byte[] payload = new byte[256];
        Arrays.fill(payload, fill);
        return FrameBuilder.of(e, Opcode.RDMA_WRITE_ONLY).payload(payload).with("bth.psn", psn)
            .with("bth.dqpn", qpn).with("bth.ackreq", ackReq ? 1 : 0).with("pleth.msn", psn)
            .with("reth.va", mr.va() + 256L * psn).with("reth.rkey", Integer.toUnsignedLong(mr.rkey()))
            .with("reth.dmalen", 256).build();
    }

    private List<DecodedFrame> drain() {
        final List<DecodedFrame> out = new ArrayList<>();
        CapturedFrame frame;
        while ((frame = data.poll(data.now() + 1_000_000)) != null) {
            out.add(new FrameDecoder().decode(java.nio.ByteBuffer.wrap(frame.bytes()), 0, frame.bytes().length));
        }
        return out;
    }

    @Test
    void overwritingASentFrameChangesNothing() {
        final byte[] second = write(1, (byte) 0x22, true);
        data.send(second);
        Arrays.fill(second, (byte) 0); // recorded out of order: the device must not look at this array again
        final byte[] first = write(0, (byte) 0x11, true);
        data.send(first);
        Arrays.fill(first, (byte) 0xFF);
        final List<DecodedFrame> acks = drain();
        assertThat(acks).isNotEmpty().allSatisfy(f -> assertThat(f.opcode()).isEqualTo(Opcode.ACKNOWLEDGE));
        final DecodedFrame last = acks.get(acks.size() - 1);
        assertThat(last.aeth().msn()).as("both messages complete").isEqualTo(2);
        assertThat(last.sacketh().basePsn()).isEqualTo(2);
        final byte[] memory = control.readMemory(mr.va(), 512);
        final byte[] expected = new byte[512];
        Arrays.fill(expected, 0, 256, (byte) 0x11);
        Arrays.fill(expected, 256, 512, (byte) 0x22);
        assertThat(memory).isEqualTo(expected);
    }
}
