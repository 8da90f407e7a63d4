package org.metaroce.mrct.oracle;

import java.util.List;
import org.metaroce.mrct.oracle.internal.Collector;
import org.metaroce.mrct.oracle.internal.LinkChecks;
import org.metaroce.mrct.oracle.internal.Text;
import org.metaroce.mrct.wire.DecodedFrame;
import org.metaroce.mrct.wire.HeaderKind;
import org.metaroce.mrct.wire.Opcode;
import org.metaroce.mrct.wire.Psn;

/**
 * The state the stream rules need of one QP's frames, in the order it sent them, and those rules: MR-ACK-010 (the
 * cumulative acknowledgement, sacketh.base, never moves back) and the UDP source port rules of section 15 (one port
 * without spraying, MR-MP-001; at least 2 in any 16 consecutive data packets with it, MR-MP-002 for requests and
 * MR-MP-004 for read responses). The caller keeps one per QP it judges, gives it every frame the QP sends, and tells
 * it when the QP was modified ({@link #forgetSourcePorts}) or reset ({@link #restart}).
 */
public final class QpStream {
    /** The window of MR-MP-002: any 16 consecutive data packets. */
    public static final int SPRAY_WINDOW = 16;

    private boolean acknowledged;
    private int highestBase;
    private int firstPort = -1;
    private final int[] recentPorts = new int[SPRAY_WINDOW];
    private int recentCount;
    private int recentNext;

    /** The QP was modified: MR-MP-001 holds "while it stays in RTS", so the source ports start afresh. */
    public void forgetSourcePorts() {
        firstPort = -1;
        recentCount = 0;
        recentNext = 0;
    }

    /** The QP was reset: a new incarnation, whose acknowledgements and source ports start afresh. */
    public void restart() {
        acknowledged = false;
        forgetSourcePorts();
    }

    /**
     * Takes one frame the QP sent, in order, and returns what it breaks of the stream rules: MR-ACK-010 for a TVer 1
     * ACKNOWLEDGE, the source port rules for a data packet when the caller knows the QP's spray attribute.
     */
    public List<Finding> onSent(final DecodedFrame f, final long frame, final QpFacts qp) {
        final Collector out = new Collector(frame, null);
        if (!f.isRoce()) {
            return out.findings();
        }
        if (f.opcode() == Opcode.ACKNOWLEDGE && f.tver() == 1 && f.has(HeaderKind.SACKETH)) {
            cumulativeNeverMovesBack(f, qp, out);
        }
        if (qp.spray() != null && LinkChecks.isData(f.opcode())) {
            if (qp.spray()) {
                portsVaryInEveryWindow(f, out);
            } else {
                onePortWithoutSpray(f, qp, out);
            }
        }
        return out.findings();
    }

    /** MR-ACK-010: sacketh.base is never before the highest base the QP reported since it was reset. */
    private void cumulativeNeverMovesBack(final DecodedFrame f, final QpFacts qp, final Collector out) {
        final int base = f.sacketh().basePsn();
        if (acknowledged && Psn.isBefore(base, highestBase)) {
            out.add(FrameRule.ACK_010, "sacketh.base", "at least " + Text.psn(highestBase, qp.psnOrigin())
                + " (the highest reported so far)", Text.psn(base, qp.psnOrigin()));
            return;
        }
        highestBase = base;
        acknowledged = true;
    }

    /** MR-MP-001: without spraying, one udp.sport for every data packet, the udp_sport attribute when it is set. */
    private void onePortWithoutSpray(final DecodedFrame f, final QpFacts qp, final Collector out) {
        final int port = f.udp().sourcePort();
        if (qp.udpSport() != null && port != qp.udpSport()) {
            out.add(FrameRule.MP_001, "udp.sport", Text.hex(qp.udpSport()) + " (the udp_sport attribute)",
                Text.hex(port), Basis.configured("the QP's udp_sport attribute, spray off"));
        }
        if (firstPort < 0) {
            firstPort = port;
        } else if (port != firstPort) {
            out.add(FrameRule.MP_001, "udp.sport", Text.hex(firstPort)
                + " (the port of the QP's earlier data packets; spray is off)", Text.hex(port),
                Basis.configured("the QP's spray attribute, off"));
        }
    }

    /** MR-MP-002 (requests) and MR-MP-004 (read responses): 2 values or more in any 16 consecutive data packets. */
    private void portsVaryInEveryWindow(final DecodedFrame f, final Collector out) {
        final int port = f.udp().sourcePort();
        recentPorts[recentNext] = port;
        recentNext = (recentNext + 1) % SPRAY_WINDOW;
        recentCount = Math.min(recentCount + 1, SPRAY_WINDOW);
        if (recentCount < SPRAY_WINDOW) {
            return;
        }
        for (final int recent : recentPorts) {
            if (recent != port) {
                return;
            }
        }
        out.add(f.opcode().kind().isRequest() ? FrameRule.MP_002 : FrameRule.MP_004, "udp.sport",
            "at least 2 values in " + SPRAY_WINDOW + " consecutive data packets (spray is on)",
            Text.hex(port) + " in all " + SPRAY_WINDOW, Basis.configured("the QP's spray attribute, on"));
    }
}
