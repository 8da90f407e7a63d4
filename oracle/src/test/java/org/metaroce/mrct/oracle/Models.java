package org.metaroce.mrct.oracle;

import java.util.List;

/** Hand-built inputs for the DCQCN model tests: CNP times and (time, bytes) packets, replayed in time order. */
final class Models {
    private Models() {
    }

    static DcqcnStream.DataPacket packet(final long time, final long wireBytes) {
        return new DcqcnStream.DataPacket(time, wireBytes, time);
    }

    /** The exact model, through {@link DcqcnStream} as its callers feed it. */
    static ReactionPoint exact(final DcqcnConstants k, final long rts, final List<Long> cnps,
                               final List<DcqcnStream.DataPacket> packets, final long until) {
        final DcqcnStream stream = new DcqcnStream(k, rts);
        cnps.forEach(stream::onCnpReceived);
        packets.forEach(p -> stream.onDataSent(p.time(), p.wireBytes(), p.frame()));
        return stream.model(until);
    }

    /** The model fed directly, with either reading of the limits. */
    static ReactionPoint replay(final DcqcnConstants k, final boolean rtLimitedFirst, final long rts,
                                final List<Long> cnps, final List<DcqcnStream.DataPacket> packets, final long until) {
        final ReactionPoint model = new ReactionPoint(k, rtLimitedFirst, rts);
        int c = 0;
        int p = 0;
        while (c < cnps.size() || p < packets.size()) {
            final long tc = c < cnps.size() ? cnps.get(c) : Long.MAX_VALUE;
            final long tp = p < packets.size() ? packets.get(p).time() : Long.MAX_VALUE;
            if (Math.min(tc, tp) > until) {
                break;
            }
            if (tc <= tp) {
                model.cnp(cnps.get(c++));
            } else {
                model.sent(tp, packets.get(p++).wireBytes());
            }
        }
        model.advance(until);
        return model;
    }
}
