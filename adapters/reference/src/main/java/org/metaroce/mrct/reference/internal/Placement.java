package org.metaroce.mrct.reference.internal;

import org.metaroce.mrct.spi.ReceiveWqe;
import org.metaroce.mrct.wire.DecodedFrame;

/** Placement of payload on arrival (MetaRoCE v1 Table 6-1): all of a packet's bytes or none. */
final class Placement {
    private Placement() {
    }

    /**
     * RDMA WRITE: at reth.va + pleth.offset in the checked region. Bytes outside the region (possible only with the
     * fault that skips check P5) are not written.
     */
    static void write(final MemoryRegionState mr, final Recorded p, final DecodedFrame f) {
        final long start = p.rethVa + p.offset - mr.va;
        final long from = Math.max(0, start);
        final long to = Math.min(mr.data.length, start + p.payloadLength);
        if (to > from) {
            f.buffer().get((int) (f.payloadOffset() + from - start), mr.data, (int) from, (int) (to - from));
        }
    }

    /** SEND: at byte pleth.offset of the receive WQE's buffer (checked to fit by V13). */
    static void send(final Device device, final ReceiveWqe wqe, final Recorded p, final DecodedFrame f) {
        final MemoryRegionState mr = device.memory.byLkey(wqe.lkey());
        final long at = wqe.va() + p.offset - mr.va;
        // within the region even when a fault lets a packet overrun its buffer (V13_PACKET_LENGTH_ONLY)
        f.buffer().get(f.payloadOffset(), mr.data, (int) at, (int) Math.min(p.payloadLength, mr.data.length - at));
    }

    /** Fault PARTIAL_PLACEMENT: the part of a SEND packet that fits the buffer. */
    static void sendPrefix(final Device device, final ReceiveWqe wqe, final Recorded p, final DecodedFrame f) {
        final MemoryRegionState mr = device.memory.byLkey(wqe.lkey());
        final int fits = (int) Math.min(p.payloadLength, wqe.length() - p.offset);
        final long at = wqe.va() + p.offset - mr.va;
        f.buffer().get(f.payloadOffset(), mr.data, (int) at, fits);
    }
}
