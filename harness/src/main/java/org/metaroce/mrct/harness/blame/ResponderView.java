package org.metaroce.mrct.harness.blame;

import java.util.BitSet;
import java.util.List;

/**
 * What a conforming responder holds after the request packets the harness sent on one connection (spec sections 4.2
 * and 4.3: a packet in [ePSN, ePSN + W) that has not arrived before is recorded, ePSN advances over recorded PSNs),
 * and how it classed the last of them. Blame compares the device's acknowledgements with it to tell which field is
 * wrong and whether the device failed to accept or failed to report. Packets that a conforming device would reject
 * (NAK, RNR NAK) cannot be told apart here, so blame trusts this view only where it agrees with the case's own
 * expectation.
 */
public final class ResponderView {
    /** How a conforming responder classes an arriving request packet (Table 4-1). */
    public enum Arrival { IN_ORDER, OUT_OF_ORDER, DUPLICATE, BEYOND_WINDOW, NONE }

    private final int window;
    private final BitSet recorded = new BitSet();
    private int ePsn;
    private Arrival last = Arrival.NONE;
    private SentPacket lastPacket;
    private boolean outOfOrderSeen;
    private boolean beyondWindowSeen;
    private int duplicates;

    private ResponderView(final int window) {
        this.window = window;
    }

    /** The view after {@code sent} (in sending order; only valid request packets count). */
    public static ResponderView of(final List<SentPacket> sent, final int window) {
        final ResponderView view = new ResponderView(window);
        for (final SentPacket packet : sent) {
            if (packet.recordable()) {
                view.arrive(packet);
            }
        }
        return view;
    }

    /**
     * A conforming responder's (ePSN, bitmap) after each prefix of {@code sent}, the empty prefix first: an
     * acknowledgement reflects the packets that had arrived when it was built, which on the wire may be fewer than the
     * harness had sent by the time it read the acknowledgement.
     */
    public static List<long[]> moments(final List<SentPacket> sent, final int window) {
        final ResponderView view = new ResponderView(window);
        final List<long[]> moments = new java.util.ArrayList<>();
        moments.add(new long[] {view.ePsn, view.bitmap()});
        for (final SentPacket packet : sent) {
            if (packet.recordable()) {
                view.arrive(packet);
                moments.add(new long[] {view.ePsn, view.bitmap()});
            }
        }
        return moments;
    }

    /**
     * The moments at which an acknowledgement received after the first {@code before} packets of {@code sent} can have
     * been built: after at least one request packet (an acknowledgement answers one) and after no more than those
     * {@code before}.
     */
    public static List<long[]> momentsBefore(final List<SentPacket> sent, final int before, final int window) {
        final List<long[]> all = moments(sent.subList(0, Math.max(0, Math.min(before, sent.size()))), window);
        return all.size() > 1 ? all.subList(1, all.size()) : all;
    }

    /** Lets one more packet arrive (valid request packets only count). */
    void accept(final SentPacket packet) {
        if (packet.recordable()) {
            arrive(packet);
        }
    }

    private void arrive(final SentPacket packet) {
        lastPacket = packet;
        // the distance from ePSN on the 2^24 circle, as Table 4-1 classes it (2^23 counts as before ePSN)
        final int d = org.metaroce.mrct.wire.Psn.diff(packet.psn(), ePsn);
        if (d < 0 || packet.psn() >= 0 && recorded.get(packet.psn())) {
            last = Arrival.DUPLICATE;
            duplicates++;
            return;
        }
        if (d >= window) {
            last = Arrival.BEYOND_WINDOW;
            beyondWindowSeen = true;
            return;
        }
        last = d == 0 ? Arrival.IN_ORDER : Arrival.OUT_OF_ORDER;
        outOfOrderSeen |= d != 0;
        recorded.set(packet.psn(), packet.psn() + packet.span());
        while (recorded.get(ePsn)) {
            ePsn++;
        }
    }

    /** The responder's expected PSN, relative. */
    public int ePsn() {
        return ePsn;
    }

    /** The SACK bitmap an ACK built now carries: bit i (from the most significant) for PSN ePSN + i. */
    public long bitmap() {
        long bitmap = 0;
        for (int i = 0; i < 64; i++) {
            if (recorded.get(ePsn + i)) {
                bitmap |= 1L << (63 - i);
            }
        }
        return bitmap;
    }

    /** How the last request packet was classed. */
    public Arrival lastArrival() {
        return last;
    }

    /** The last request packet, or null. */
    public SentPacket lastPacket() {
        return lastPacket;
    }

    /** True when some packet arrived after ePSN (a hole before it). */
    public boolean outOfOrderSeen() {
        return outOfOrderSeen;
    }

    /** How many of the packets were duplicates (counted in duplicate_received by a conforming responder). */
    public int duplicates() {
        return duplicates;
    }

    /** True when some packet was beyond the window. */
    public boolean beyondWindowSeen() {
        return beyondWindowSeen;
    }
}
