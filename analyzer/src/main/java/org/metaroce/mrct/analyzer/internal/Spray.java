package org.metaroce.mrct.analyzer.internal;

import org.metaroce.mrct.harness.result.FieldDiff;
import org.metaroce.mrct.wire.Psn;

/**
 * The UDP source ports of one QP's data packets (section 15). A QP that does not spray uses one port (MR-MP-001); one
 * that sprays uses at least two in any 16 consecutive data packets (MR-MP-002). The capture cannot see the spray
 * attribute, but a QP that used several ports sprays (or breaks MR-MP-001, which only a profile without
 * {@code multipath-spraying} decides), so a run of 16 packets on one port between packets on other ports breaks
 * MR-MP-002 either way. Runs are judged only when their first transmissions were captured in PSN order, one after
 * the other: a network that reorders sprayed packets could otherwise gather packets of one port into a run.
 */
final class Spray {
    static final int WINDOW = 16;

    private int firstPort = -1;
    private boolean varied;
    private long packets;
    private int runPort = -1;
    private int runLength;
    private boolean runOrdered;
    private int runNextPsn = -1;
    private long runFirstFrame;
    private boolean variedBeforeRun;
    private boolean reportedOff;

    /** True once the QP used two source ports or more. */
    boolean sprayed() {
        return varied;
    }

    long packets() {
        return packets;
    }

    /**
     * A data packet of the flow; {@code firstTx} says whether it is the first transmission of its PSN.
     */
    void onData(final Frame fr, final boolean firstTx, final Context cx) {
        packets++;
        final int port = fr.sourcePort;
        final Flow flow = fr.flow;
        final Connection c = flow.connection;
        if (firstPort < 0) {
            firstPort = port;
        } else if (port != firstPort && !varied) {
            varied = true;
            if (cx.parameters.declared() && !cx.parameters.claims("multipath-spraying") && !reportedOff) {
                reportedOff = true;
                final int was = firstPort;
                cx.judge.report(c, flow, Check.SPRAY_OFF, Basis.DEFINITE, fr,
                    () -> "the QP's data packets change UDP source port from " + was + " to " + port + ", but the "
                        + "profile does not claim multipath-spraying, so the QP does not spray", null,
                    new FieldDiff("udp.sport", Integer.toString(was), Integer.toString(port)));
            }
        }
        if (port == runPort) {
            runLength++;
            if (firstTx) {
                if (runNextPsn >= 0 && fr.psn != runNextPsn) {
                    runOrdered = false;
                }
                runNextPsn = Psn.add(fr.psn, 1);
            }
            return;
        }
        if (runLength >= WINDOW && runOrdered && variedBeforeRun) {
            final int length = runLength;
            final int was = runPort;
            final long from = runFirstFrame;
            Judge.observe(c, flow, Check.SPRAY_ON);
            cx.judge.report(c, flow, Check.SPRAY_ON, Basis.DEFINITE, fr,
                () -> length + " consecutive data packets from frame " + from + " all used UDP source port " + was
                    + ", although the QP sprays (it uses other ports before and after them)", null,
                new FieldDiff("udp.sport", "2 values or more in any 16 data packets", "only " + was + " in "
                    + length));
        }
        variedBeforeRun = runPort >= 0;
        runPort = port;
        runLength = 1;
        runOrdered = true;
        runNextPsn = firstTx ? Psn.add(fr.psn, 1) : -1;
        runFirstFrame = fr.number;
    }
}
