package org.metaroce.mrct.bench;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.metaroce.mrct.reference.ReferenceAdapter;
import org.metaroce.mrct.spi.Access;
import org.metaroce.mrct.spi.ControlPlane;
import org.metaroce.mrct.spi.DataPlane;
import org.metaroce.mrct.spi.MemoryRegion;
import org.metaroce.mrct.spi.QpAttribute;
import org.metaroce.mrct.spi.QpAttributes;
import org.metaroce.mrct.spi.QpState;
import org.metaroce.mrct.wire.Encapsulation;
import org.metaroce.mrct.wire.FrameBuilder;
import org.metaroce.mrct.wire.Opcode;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The reference NIC as responder: MetaRoCE RDMA WRITE ONLY packets with 1 KiB of payload, each placed into a region
 * and acknowledged (AckReq on every 16th packet and the last), on one thread. One operation is one packet, so the score
 * is packets per second. {@code order}: {@code in-order}, or {@code shuffled} (each block of 64 PSNs permuted, inside
 * the receive window, so every packet is accepted out of order and the SACK bitmap works). Each invocation sends a batch
 * of {@link #BATCH} packets to a QP freshly brought back to RTS with the same initial PSN, so the same prepared frames
 * are valid again; the reset is outside the measurement.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class ResponderBenchmark {
    /** Packets per invocation. */
    public static final int BATCH = 4096;

    /** Packet order within the batch. */
    @Param({"in-order", "shuffled"})
    public String order;

    private ReferenceAdapter nic;
    private ControlPlane control;
    private DataPlane data;
    private int qpn;
    private QpAttributes attributes;
    private final List<byte[]> frames = new ArrayList<>();

    /** Creates the NIC, the QP, the region and the batch of frames. */
    @Setup(Level.Trial)
    public void setUp() {
        nic = new ReferenceAdapter(Map.of(), Set.of(), Set.of());
        control = nic.controlPlane();
        data = nic.dataPlane();
        final int pd = control.allocatePd();
        final MemoryRegion mr = control.registerMr(pd, (long) BATCH * 1024, Set.of(Access.LOCAL_WRITE,
            Access.REMOTE_WRITE));
        attributes = QpAttributes.empty().with(QpAttribute.PD, pd)
            .with(QpAttribute.DEST_IP, ReferenceAdapter.ENDPOINTS.harnessIpv4())
            .with(QpAttribute.DEST_MAC, ReferenceAdapter.ENDPOINTS.harnessMac()).with(QpAttribute.DEST_QPN, 0x321)
            .with(QpAttribute.RQ_PSN, 0).with(QpAttribute.SQ_PSN, 0).with(QpAttribute.PMTU, 1024)
            .with(QpAttribute.ACCESS, Set.of(Access.REMOTE_WRITE));
        qpn = control.createQp(attributes);
        final Encapsulation e = Encapsulation.ipv4(ReferenceAdapter.ENDPOINTS.harnessIpv4(),
            ReferenceAdapter.ENDPOINTS.deviceIpv4()).withMacs(ReferenceAdapter.ENDPOINTS.harnessMac(),
                ReferenceAdapter.ENDPOINTS.deviceMac()).withUdpSourcePort(0xC321);
        final List<Integer> psns = new ArrayList<>();
        for (int i = 0; i < BATCH; i++) {
            psns.add(i);
        }
        if ("shuffled".equals(order)) {
            final Random random = new Random(1);
            for (int block = 0; block < BATCH; block += 64) {
                Collections.shuffle(psns.subList(block, block + 64), random);
            }
        }
        for (int i = 0; i < BATCH; i++) {
            final int psn = psns.get(i);
            frames.add(FrameBuilder.of(e, Opcode.RDMA_WRITE_ONLY).payload(BenchFrames.payload(psn))
                .with("bth.psn", psn).with("bth.dqpn", qpn).with("bth.ackreq", i % 16 == 15 || i == BATCH - 1 ? 1 : 0)
                .with("pleth.msn", psn).with("reth.va", mr.va() + (long) psn * 1024)
                .with("reth.rkey", Integer.toUnsignedLong(mr.rkey())).with("reth.dmalen", 1024).build());
        }
    }

    /** Brings the QP back to RTS with rq_psn 0 and drops what the last batch left in the outbox. */
    @Setup(Level.Invocation)
    public void resetQp() {
        while (data.poll(data.now()) != null) {
            // acknowledgements of the previous batch
        }
        control.modifyQp(qpn, QpState.RESET, QpAttributes.empty());
        control.modifyQp(qpn, QpState.INIT, attributes);
        control.modifyQp(qpn, QpState.RTR, QpAttributes.empty());
        control.modifyQp(qpn, QpState.RTS, QpAttributes.empty());
    }

    /** Places and acknowledges one batch; returns the ACKs sent. */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public int placeAndAcknowledge() {
        int acks = 0;
        for (int i = 0; i < BATCH; i++) {
            data.send(frames.get(i));
            if ((i & 15) == 15) {
                while (data.poll(data.now()) != null) {
                    acks++;
                }
            }
        }
        while (data.poll(data.now()) != null) {
            acks++;
        }
        return acks;
    }

    /** One packet of the batch (for tests). */
    ByteBuffer frame(final int i) {
        return ByteBuffer.wrap(frames.get(i));
    }
}
