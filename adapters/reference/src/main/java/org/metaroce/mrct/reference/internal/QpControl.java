package org.metaroce.mrct.reference.internal;

import java.util.Map;
import java.util.Set;
import org.metaroce.mrct.spi.Access;
import org.metaroce.mrct.spi.QpAttribute;
import org.metaroce.mrct.spi.QpAttributes;
import org.metaroce.mrct.spi.QpState;
import org.metaroce.mrct.spi.RejectedException;
import org.metaroce.mrct.wire.Encapsulation;
import org.metaroce.mrct.wire.Psn;

/**
 * The QP state machine of MetaRoCE v1 Table 3-2 and the attribute ranges of Table B-2 (rule MR-QP-009): every
 * modification is checked in full before anything is applied, and a rejected one leaves the QP unchanged.
 */
final class QpControl {
    private QpControl() {
    }

    static void modify(final Device device, final QueuePair qp, final QpState target, final QpAttributes attributes) {
        final QpState from = qp.state;
        final boolean allowed = switch (target) {
            case RESET -> true;
            case INIT -> from == QpState.RESET || from == QpState.INIT;
            case RTR -> from == QpState.INIT;
            case RTS -> from == QpState.RTR || from == QpState.RTS
                || from == QpState.INIT && device.has(org.metaroce.mrct.reference.Fault.INIT_TO_RTS_ACCEPTED);
            case ERROR -> from == QpState.INIT || from == QpState.RTR || from == QpState.RTS
                || from == QpState.ERROR;
        };
        if (!allowed) {
            throw new RejectedException("a QP in " + from + " cannot move to " + target + " (Table 3-2)");
        }
        if (from == QpState.RTS && target == QpState.RTS) {
            for (final QpAttribute attribute : attributes.asMap().keySet()) {
                if (!Set.of(QpAttribute.RETRY_CNT, QpAttribute.RNR_RETRY, QpAttribute.RTO_LOW_NS,
                    QpAttribute.RTO_HIGH_NS, QpAttribute.N_LOW, QpAttribute.REORDER_THRESHOLD,
                    QpAttribute.REORDER_TIME_NS, QpAttribute.MIN_RNR_TIMER, QpAttribute.DSCP, QpAttribute.SPRAY)
                    .contains(attribute)) {
                    throw new RejectedException(attribute.label() + " cannot change in RTS (Table 3-2)");
                }
            }
        }
        if (target == QpState.RESET) {
            final QueuePair fresh = new QueuePair(qp.qpn);
            device.qps.put(fresh);
            copyAttributes(qp, fresh);
            // counters never decrease short of a device reset (MR-CONF-003); completions already made stay pollable
            fresh.counters = qp.counters;
            fresh.completions = qp.completions;
            // the old incarnation sends nothing more: its queued read responses are discarded
            qp.state = QpState.RESET;
            if (qp.tx != null) {
                qp.tx.frames.clear();
            }
            apply(device, fresh, attributes);
            return;
        }
        if (target == QpState.ERROR) {
            apply(device, qp, attributes);
            device.fatal(qp, -1, org.metaroce.mrct.spi.CompletionStatus.FLUSHED);
            return;
        }
        if (target == QpState.RTR && (qp.destIp == null && !attributes.has(QpAttribute.DEST_IP)
            || qp.pd == 0 && !attributes.has(QpAttribute.PD))) {
            throw new RejectedException("RTR needs dest_qpn, dest_ip, dest_mac and pd");
        }
        apply(device, qp, attributes);
        if (target == QpState.RTR) {
            qp.encapsulation = encapsulation(device, qp);
            qp.ePsn = device.has(org.metaroce.mrct.reference.Fault.RTR_EPSN_FROM_SQ_PSN) ? qp.sqPsn : qp.rqPsn;
            qp.msn = 0;
            qp.expectedRsn = 0;
            qp.expectedRsnIndex = 0;
            qp.seqSeen = false;
            qp.lastReportedBase = qp.rqPsn;
            device.resetCnpScope(qp);
        }
        if (target == QpState.RTS && from == QpState.RTR) {
            qp.dcqcnState = new Dcqcn(qp.dcqcn, device.scheduler.now(), device.config.faults());
            qp.state = target;
            qp.requester = new Requester(device, qp);
            if (qp.heldSends != null) {
                qp.heldSends.forEach(qp.requester::post);
                qp.heldSends = null;
                device.kick(qp);
            }
        }
        if (target == QpState.RTS && from == QpState.RTS) {
            qp.encapsulation = encapsulation(device, qp);
        }
        qp.state = target;
    }

    private static void copyAttributes(final QueuePair from, final QueuePair to) {
        to.pd = from.pd;
        to.pmtu = from.pmtu;
        to.recvWindow = from.recvWindow;
        to.sendWindow = from.sendWindow;
        to.ackReqInterval = from.ackReqInterval;
        to.rtoLowNs = from.rtoLowNs;
        to.rtoHighNs = from.rtoHighNs;
        to.nLow = from.nLow;
        to.reorderThreshold = from.reorderThreshold;
        to.reorderTimeNs = from.reorderTimeNs;
        to.retryCnt = from.retryCnt;
        to.rnrRetry = from.rnrRetry;
        to.minRnrTimer = from.minRnrTimer;
        to.maxRdAtomic = from.maxRdAtomic;
        to.maxDestRdAtomic = from.maxDestRdAtomic;
        to.access = from.access;
        to.pkey = from.pkey;
        to.tver = from.tver;
        to.dscp = from.dscp;
        to.dcqcn = from.dcqcn;
    }

    static Encapsulation encapsulation(final Device device, final QueuePair qp) {
        final boolean v6 = qp.destIp.length == 16;
        final String source = org.metaroce.mrct.wire.DecodedFrame.formatAddress(v6 ? device.config.ipv6()
            : device.config.ipv4());
        final String destination = org.metaroce.mrct.wire.DecodedFrame.formatAddress(qp.destIp);
        Encapsulation e = v6 ? Encapsulation.ipv6(source, destination) : Encapsulation.ipv4(source, destination);
        e = e.withMacs(device.config.mac(), qp.destMac).withDscp(qp.dscp).withUdpSourcePort(device.sourcePort(qp));
        if (qp.vlan != Encapsulation.NO_VLAN) {
            e = e.withVlan(qp.vlan, 0);
        }
        return e;
    }

    /** Checks every attribute against Table B-2, then applies them all. */
    static void apply(final Device device, final QueuePair qp, final QpAttributes attributes) {
        final DeviceConfig c = device.config;
        final boolean eager = device.has(org.metaroce.mrct.reference.Fault.MODIFY_APPLIED_BEFORE_CHECK);
        for (final Map.Entry<QpAttribute, Object> entry : attributes.asMap().entrySet()) {
            check(c, qp, entry.getKey(), entry.getValue(), attributes);
            if (eager) {
                set(qp, entry.getKey(), entry.getValue());
            }
        }
        for (final Map.Entry<QpAttribute, Object> entry : attributes.asMap().entrySet()) {
            set(qp, entry.getKey(), entry.getValue());
        }
    }

    private static long number(final Object value) {
        return ((Number) value).longValue();
    }

    private static void range(final QpAttribute attribute, final long value, final long low, final long high) {
        if (value < low || value > high) {
            throw new RejectedException(attribute.label() + " " + value + " is outside " + low + ".." + high
                + " (Table B-2)");
        }
    }

    private static void check(final DeviceConfig c, final QueuePair qp, final QpAttribute attribute,
                              final Object value, final QpAttributes all) {
        switch (attribute) {
            case PMTU -> {
                final long pmtu = number(value);
                if (pmtu != 256 && pmtu != 512 && pmtu != 1024 && pmtu != 2048 && pmtu != 4096
                    || pmtu > c.number("max_pmtu", 4096)) {
                    throw new RejectedException("pmtu " + pmtu + " is not one of 256..4096 at most max_pmtu "
                        + c.number("max_pmtu", 4096));
                }
            }
            case RECV_WINDOW, SEND_WINDOW -> range(attribute, number(value), 16, 32768);
            case ACK_REQ_INTERVAL -> range(attribute, number(value), 1, all.getInt(QpAttribute.SEND_WINDOW,
                qp.sendWindow));
            case RETRY_CNT, RNR_RETRY -> range(attribute, number(value), 0, 7);
            case MIN_RNR_TIMER -> range(attribute, number(value), 0, 31);
            case MAX_RD_ATOMIC, MAX_DEST_RD_ATOMIC -> range(attribute, number(value), 1, 255);
            case REORDER_THRESHOLD -> range(attribute, number(value), 1, 63);
            case RTO_LOW_NS -> range(attribute, number(value), 10_000, all.getLong(QpAttribute.RTO_HIGH_NS,
                qp.rtoHighNs));
            case RTO_HIGH_NS -> range(attribute, number(value), all.getLong(QpAttribute.RTO_LOW_NS, qp.rtoLowNs),
                1_000_000_000L);
            case REORDER_TIME_NS -> range(attribute, number(value), 0, all.getLong(QpAttribute.RTO_LOW_NS,
                qp.rtoLowNs));
            case N_LOW -> range(attribute, number(value), 0, all.getInt(QpAttribute.SEND_WINDOW, qp.sendWindow));
            case DEST_QPN, SQ_PSN, RQ_PSN -> range(attribute, number(value), 0, Psn.MASK);
            case PKEY -> range(attribute, number(value), 0, 0xFFFF);
            case DSCP -> range(attribute, number(value), 0, 63);
            case UDP_SPORT -> range(attribute, number(value), 0xC000, 0xFFFF);
            case VLAN -> range(attribute, number(value), 0, 4094);
            case TVER -> {
                final long tver = number(value);
                if (tver != 1 && !(tver == 0 && c.claims("legacy-rocev2"))) {
                    throw new RejectedException("tver " + tver + " needs " + (tver == 0
                        ? "the PICS item legacy-rocev2" : "to be 0 or 1"));
                }
            }
            case SPRAY -> {
                if ((Boolean) value && !c.claims("multipath-spraying")) {
                    throw new RejectedException("spray needs the PICS item multipath-spraying");
                }
            }
            case DEST_IP -> {
                try {
                    DeviceConfig.address((String) value);
                } catch (IllegalArgumentException e) {
                    throw new RejectedException("dest_ip: " + e.getMessage());
                }
            }
            default -> {
            }
        }
    }

    @SuppressWarnings("unchecked")
    private static void set(final QueuePair qp, final QpAttribute attribute, final Object value) {
        switch (attribute) {
            case PD -> qp.pd = (int) number(value);
            case DEST_QPN -> qp.destQpn = (int) number(value);
            case SQ_PSN -> qp.sqPsn = (int) number(value);
            case RQ_PSN -> qp.rqPsn = (int) number(value);
            case PMTU -> qp.pmtu = (int) number(value);
            case RECV_WINDOW -> qp.recvWindow = (int) number(value);
            case SEND_WINDOW -> qp.sendWindow = (int) number(value);
            case ACK_REQ_INTERVAL -> qp.ackReqInterval = (int) number(value);
            case RTO_LOW_NS -> qp.rtoLowNs = number(value);
            case RTO_HIGH_NS -> qp.rtoHighNs = number(value);
            case N_LOW -> qp.nLow = (int) number(value);
            case REORDER_THRESHOLD -> qp.reorderThreshold = (int) number(value);
            case REORDER_TIME_NS -> qp.reorderTimeNs = number(value);
            case RETRY_CNT -> qp.retryCnt = (int) number(value);
            case RNR_RETRY -> qp.rnrRetry = (int) number(value);
            case MIN_RNR_TIMER -> qp.minRnrTimer = (int) number(value);
            case MAX_RD_ATOMIC -> qp.maxRdAtomic = (int) number(value);
            case MAX_DEST_RD_ATOMIC -> qp.maxDestRdAtomic = (int) number(value);
            case ACCESS -> qp.access = Device.accessBits((Set<Access>) value);
            case PKEY -> qp.pkey = (int) number(value);
            case TVER -> qp.tver = (int) number(value);
            case SPRAY -> qp.spray = (Boolean) value;
            case DEST_IP -> qp.destIp = DeviceConfig.address((String) value);
            case DEST_MAC -> qp.destMac = number(value);
            case VLAN -> qp.vlan = (int) number(value);
            case DSCP -> qp.dscp = (int) number(value);
            case UDP_SPORT -> qp.udpSport = (int) number(value);
            case LINE_RATE_MBPS -> qp.dcqcn = withLineRate(qp.dcqcn, number(value));
            case DCQCN_G, DCQCN_ALPHA_INIT, DCQCN_ALPHA_TIMER_NS, DCQCN_RATE_TIMER_NS, DCQCN_BYTE_COUNTER, DCQCN_F,
                DCQCN_RAI_MBPS, DCQCN_RHAI_MBPS, DCQCN_MIN_RATE_MBPS -> qp.dcqcn = withDcqcn(qp.dcqcn, attribute,
                ((Number) value).doubleValue());
            default -> {
            }
        }
    }

    private static DcqcnParameters withLineRate(final DcqcnParameters p, final long rate) {
        return new DcqcnParameters(rate, p.g(), p.alphaInit(), p.alphaTimerNs(), p.rateTimerNs(), p.byteCounter(),
            p.f(), p.raiMbps(), p.rhaiMbps(), p.minRateMbps());
    }

    private static DcqcnParameters withDcqcn(final DcqcnParameters p, final QpAttribute attribute, final double v) {
        return new DcqcnParameters(p.lineRateMbps(), attribute == QpAttribute.DCQCN_G ? v : p.g(),
            attribute == QpAttribute.DCQCN_ALPHA_INIT ? v : p.alphaInit(),
            attribute == QpAttribute.DCQCN_ALPHA_TIMER_NS ? (long) v : p.alphaTimerNs(),
            attribute == QpAttribute.DCQCN_RATE_TIMER_NS ? (long) v : p.rateTimerNs(),
            attribute == QpAttribute.DCQCN_BYTE_COUNTER ? (long) v : p.byteCounter(),
            attribute == QpAttribute.DCQCN_F ? (int) v : p.f(), attribute == QpAttribute.DCQCN_RAI_MBPS ? v
                : p.raiMbps(), attribute == QpAttribute.DCQCN_RHAI_MBPS ? v : p.rhaiMbps(),
            attribute == QpAttribute.DCQCN_MIN_RATE_MBPS ? v : p.minRateMbps());
    }
}
