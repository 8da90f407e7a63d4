package org.metaroce.mrct.reference.internal;

import org.metaroce.mrct.reference.Fault;
import org.metaroce.mrct.spi.WorkOpcode;
import org.metaroce.mrct.wire.Encapsulation;
import org.metaroce.mrct.wire.HeaderKind;
import org.metaroce.mrct.wire.HeaderLayout;
import org.metaroce.mrct.wire.Opcode;
import org.metaroce.mrct.wire.header.AtomicEthFlyweight;
import org.metaroce.mrct.wire.header.IethFlyweight;
import org.metaroce.mrct.wire.header.ImmDtFlyweight;
import org.metaroce.mrct.wire.header.PlethFlyweight;
import org.metaroce.mrct.wire.header.RethFlyweight;

/**
 * Builds the request packets of a QP (MetaRoCE v1 section 12, Table 12-1; Table D-4 for TVer 0): the opcode for the
 * message kind and position, PLETH on every TVer 1 packet, RETH on every TVer 1 write packet, ImmDt and IETH on the
 * last packet, AtomicETH, the payload read from the WQE's local buffer at sending time.
 */
final class RequestWriter {
    private final Device device;
    private final QueuePair qp;
    private final RethFlyweight reth = new RethFlyweight();
    private final ImmDtFlyweight immDt = new ImmDtFlyweight();
    private final IethFlyweight ieth = new IethFlyweight();
    private final AtomicEthFlyweight atomic = new AtomicEthFlyweight();

    RequestWriter(final Device device, final QueuePair qp) {
        this.device = device;
        this.qp = qp;
    }

    /** Table 12-1: the opcode of packet {@code index} of {@code packets} of a message. */
    static Opcode opcode(final WorkOpcode op, final int index, final int packets) {
        final boolean first = index == 0;
        final boolean last = index == packets - 1;
        switch (op) {
            case RDMA_READ:
                return Opcode.RDMA_READ_REQUEST;
            case COMPARE_SWAP:
                return Opcode.COMPARE_SWAP;
            case FETCH_ADD:
                return Opcode.FETCH_ADD;
            case RDMA_WRITE:
            case RDMA_WRITE_WITH_IMM:
                if (first && last) {
                    return op == WorkOpcode.RDMA_WRITE ? Opcode.RDMA_WRITE_ONLY : Opcode.RDMA_WRITE_ONLY_WITH_IMMEDIATE;
                }
                if (first) {
                    return Opcode.RDMA_WRITE_FIRST;
                }
                if (last) {
                    return op == WorkOpcode.RDMA_WRITE ? Opcode.RDMA_WRITE_LAST : Opcode.RDMA_WRITE_LAST_WITH_IMMEDIATE;
                }
                return Opcode.RDMA_WRITE_MIDDLE;
            default:
                if (first && last) {
                    return op == WorkOpcode.SEND ? Opcode.SEND_ONLY : op == WorkOpcode.SEND_WITH_IMM
                        ? Opcode.SEND_ONLY_WITH_IMMEDIATE : Opcode.SEND_ONLY_WITH_INVALIDATE;
                }
                if (first) {
                    return Opcode.SEND_FIRST;
                }
                if (last) {
                    return op == WorkOpcode.SEND ? Opcode.SEND_LAST : op == WorkOpcode.SEND_WITH_IMM
                        ? Opcode.SEND_LAST_WITH_IMMEDIATE : Opcode.SEND_LAST_WITH_INVALIDATE;
                }
                return Opcode.SEND_MIDDLE;
        }
    }

    /**
     * Packet {@code index} of a message at {@code psn}; {@code offset} is its PLETH offset (for a READ re-request, the
     * offset of the first byte asked for).
     */
    byte[] request(final SendWork work, final int index, final int psn, final long offset, final boolean ackReq) {
        final Opcode opcode = opcode(work.wqe.opcode(), index, work.packets
            + (device.has(Fault.LAST_PACKET_OFF_BY_ONE) && work.packets > 1 ? 1 : 0));
        final boolean read = work.isRead();
        final int size = read || work.isAtomic() ? 0
            : (int) Math.max(0, Math.min(qp.pmtu, work.wqe.length() - (long) index * qp.pmtu));
        final FrameWriter w = device.writer;
        final boolean solicited = work.wqe.solicited() && opcode.position().isLast();
        final FrameWriter.Draft d = w.begin(qp.encapsulation, opcode, qp.tver, size, FrameWriter.ECT0,
            device.dataSourcePort(qp), qp.destQpn, qp.pkey, psn, ackReq && !device.has(Fault.ACKREQ_AFTER_ICRC));
        if (device.has(Fault.ETH_SRC_FROM_DEST)) {
            System.arraycopy(d.bytes, 0, d.bytes, 6, 6);
        }
        if (device.has(Fault.IPV6_LENGTH_WITH_HEADER) && qp.encapsulation.network() == Encapsulation.Network.IPV6) {
            final int length = d.bth - 8 - 40 + 4; // ip6.payload_length: bytes 4-5 of the IPv6 header
            d.buffer.putShort(length, (short) (d.buffer.getShort(length) + 40));
        }
        if (device.has(Fault.UDP_LENGTH_WITHOUT_ICRC)) { // udp.length: bytes 4-5 of the UDP header, before the BTH
            d.buffer.putShort(d.bth - 4, (short) (d.buffer.getShort(d.bth - 4) - 4));
        }
        if (device.has(Fault.IPV4_DF_CLEARED) && qp.encapsulation.network() == Encapsulation.Network.IPV4) {
            clearDf(d.buffer, d.bth - 28); // the IPv4 header (20 bytes, no options) before the UDP header
        }
        if (device.has(Fault.MIGREQ_SET)) {
            d.buffer.put(d.bth + 1, (byte) (d.buffer.get(d.bth + 1) | 0x40));
        }
        if (solicited) {
            d.buffer.put(d.bth + 1, (byte) (d.buffer.get(d.bth + 1) | 0x80));
        }
        final java.util.List<HeaderKind> headers = HeaderLayout.extensionHeaderList(opcode, qp.tver);
        for (final HeaderKind kind : headers) {
            switch (kind) {
                case PLETH -> {
                    final boolean whole = (read || work.isAtomic())
                        && !device.has(Fault.READ_PLETH_FLAGS_FROM_POSITION);
                    w.pleth(d, work.msn, opcode.position().isFirst() || whole, opcode.position().isLast() || whole,
                        device.has(Fault.PLETH_OFFSET_IN_PACKETS) && !read ? offset / qp.pmtu : offset, work.consumesWqe() && (index == 0 || !device.has(Fault.RSN_ON_FIRST_PACKET_ONLY))
                        ? work.rsn : 0);
                    if (device.has(Fault.PLETH_FLAG_BIT_SET)) {
                        final int flags = d.cursor - HeaderKind.PLETH.length() + PlethFlyweight.FLAGS_OFFSET;
                        d.buffer.put(flags, (byte) (d.buffer.get(flags) | 0x01));
                    }
                }
                case RETH -> {
                    // a tver 0 READ REQUEST after the first PSN asks for the rest of the read (MR-LEG-010)
                    final long skip = read && qp.tver == 0 ? offset : 0;
                    final long va = (read && device.has(Fault.READ_VA_LOCAL) ? work.wqe.localVa()
                        : work.wqe.remoteVa()) + (device.has(Fault.RETH_VA_PER_PACKET) && !read ? offset : 0);
                    reth.wrap(d.buffer, d.cursor).va(va + skip).rkey(work.wqe.rkey())
                        .dmaLength(work.wqe.length() - skip);
                    w.skip(d, HeaderKind.RETH.length());
                }
                case IMMDT -> {
                    immDt.wrap(d.buffer, d.cursor).immediate(device.has(Fault.IMMEDIATE_BYTE_SWAPPED)
                        ? Integer.reverseBytes(work.wqe.immediate()) : work.wqe.immediate());
                    w.skip(d, HeaderKind.IMMDT.length());
                }
                case IETH -> {
                    ieth.wrap(d.buffer, d.cursor).rkey(device.has(Fault.IETH_FROM_RKEY_FIELD) ? work.wqe.rkey()
                        : work.wqe.immediate());
                    w.skip(d, HeaderKind.IETH.length());
                }
                case ATOMIC_ETH -> {
                    final boolean swap = work.wqe.opcode() == WorkOpcode.COMPARE_SWAP;
                    final boolean crossed = swap && device.has(Fault.ATOMIC_OPERANDS_SWAPPED);
                    atomic.wrap(d.buffer, d.cursor).va(work.wqe.remoteVa()).rkey(work.wqe.rkey())
                        .swapAdd(swap && !crossed ? work.wqe.swap() : work.wqe.compareAdd())
                        .compare(crossed ? work.wqe.swap() : swap ? work.wqe.compareAdd() : 0);
                    w.skip(d, HeaderKind.ATOMIC_ETH.length());
                }
                default -> w.skip(d, kind.length());
            }
        }
        if (size > 0) {
            final MemoryRegionState mr = device.memory.byLkey(work.wqe.lkey());
            final long at = work.wqe.localVa() + (long) index * qp.pmtu;
            if (mr != null && mr.contains(at, size)) {
                w.payload(d, mr.data, (int) (at - mr.va), size);
                final int pad = (-size) & 3;
                if (pad > 0 && device.has(Fault.PAD_FROM_MEMORY)) { // the last word copied whole, past the message
                    final int from = (int) (at - mr.va) + size;
                    final int copied = Math.max(0, Math.min(pad, mr.data.length - from));
                    System.arraycopy(mr.data, from, d.bytes, d.cursor, copied);
                }
            } else {
                w.skip(d, size);
            }
        }
        final byte[] frame = w.finish(d);
        if (ackReq && device.has(Fault.ACKREQ_AFTER_ICRC)) {
            // the bit is set after the ICRC was sealed over the frame without it
            frame[d.bth + org.metaroce.mrct.wire.header.BthFlyweight.ACKREQ_OFFSET] |= (byte) 0x80;
        }
        return frame;
    }

    /** Clears ip.df of the IPv4 header at {@code ip} and recomputes its header checksum (the fault IPV4_DF_CLEARED). */
    private static void clearDf(final java.nio.ByteBuffer b, final int ip) {
        b.put(ip + 6, (byte) (b.get(ip + 6) & ~0x40));
        b.putShort(ip + 10, (short) 0);
        int sum = 0;
        for (int i = 0; i < 20; i += 2) {
            sum += (b.get(ip + i) & 0xFF) << 8 | b.get(ip + i + 1) & 0xFF;
        }
        sum = (sum & 0xFFFF) + (sum >>> 16);
        sum = (sum & 0xFFFF) + (sum >>> 16);
        b.put(ip + 10, (byte) (~sum >>> 8));
        b.put(ip + 11, (byte) ~sum);
    }
}
