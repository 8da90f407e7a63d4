package org.metaroce.mrct.bench;

import java.lang.management.ManagementFactory;
import java.util.Map;
import java.util.Set;
import org.metaroce.mrct.reference.ReferenceAdapter;
import org.metaroce.mrct.spi.Access;
import org.metaroce.mrct.spi.ControlPlane;
import org.metaroce.mrct.spi.QpAttribute;
import org.metaroce.mrct.spi.QpAttributes;
import org.metaroce.mrct.spi.QpState;

/**
 * The reference NIC's heap per idle QP in RTS: the heap in use after a full collection, with 65,536 QPs (max_qp) in
 * RTS minus before, divided by their number. Not a JMH benchmark (JMH measures allocation, not what stays live):
 * {@code java -cp bench/target/benchmarks.jar org.metaroce.mrct.bench.QpFootprint [QPS]}.
 */
public final class QpFootprint {
    private QpFootprint() {
    }

    private static long usedAfterGc() throws InterruptedException {
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(100);
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }

    public static void main(final String[] args) throws InterruptedException {
        final int qps = args.length > 0 ? Integer.parseInt(args[0]) : 65_536;
        final ReferenceAdapter nic = new ReferenceAdapter(Map.of("max_qp", (long) qps), Set.of(), Set.of());
        final ControlPlane control = nic.controlPlane();
        final int pd = control.allocatePd();
        final int[] qpns = new int[qps];
        final long before = usedAfterGc();
        for (int i = 0; i < qps; i++) {
            qpns[i] = control.createQp(QpAttributes.empty().with(QpAttribute.PD, pd)
                .with(QpAttribute.DEST_IP, ReferenceAdapter.ENDPOINTS.harnessIpv4())
                .with(QpAttribute.DEST_MAC, ReferenceAdapter.ENDPOINTS.harnessMac())
                .with(QpAttribute.DEST_QPN, 0x100 + i).with(QpAttribute.RQ_PSN, i).with(QpAttribute.SQ_PSN, i)
                .with(QpAttribute.ACCESS, Set.of(Access.REMOTE_WRITE, Access.REMOTE_READ)));
            control.modifyQp(qpns[i], QpState.INIT, QpAttributes.empty());
            control.modifyQp(qpns[i], QpState.RTR, QpAttributes.empty());
            control.modifyQp(qpns[i], QpState.RTS, QpAttributes.empty());
        }
        final long after = usedAfterGc();
        System.out.printf("%d QPs in RTS: %d bytes of heap, %d bytes per QP (%s)%n", qps, after - before,
            (after - before) / qps, control.queryQp(qpns[qps - 1]));
        if (Boolean.getBoolean("mrct.hold")) {
            // keep the QPs alive for a heap histogram (jcmd <pid> GC.class_histogram)
            Thread.sleep(Long.MAX_VALUE);
        }
        java.lang.ref.Reference.reachabilityFence(nic);
    }
}
