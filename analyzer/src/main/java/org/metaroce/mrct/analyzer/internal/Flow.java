package org.metaroce.mrct.analyzer.internal;

import java.util.Arrays;
import java.util.Locale;
import org.metaroce.mrct.wire.DecodedFrame;

/**
 * Every frame one QP sends: the frames from one address to another that name one destination QP (bth.dqpn). The
 * sending QP's own number is not on the wire; it is the dqpn of the other direction, known once the flows are paired.
 * A flow carries its QP's requests (its requester role: {@link #requests}) and its answers to the peer's requests
 * (acknowledgements, read responses), and CNPs.
 *
 * <p>Per flow: counters for the connection's table, the spraying state (UDP source ports of its data packets), the
 * values that must not change (P_Key, TVer), the rate meter and the CNPs it sent.
 */
final class Flow {
    final byte[] source;
    final byte[] destination;
    final int dqpn;
    final String sourceText;
    final String destinationText;
    final long firstFrame;
    final long firstNs;
    /** The source MAC of the first frame (48 bits, 0 without one): part of the key when both addresses are the same. */
    final long sourceMac;
    HostPair hostPair;
    /** The other direction of the connection, once paired. */
    Flow peer;
    Connection connection;
    /** The requests this flow's QP sends, with the peer's answers to them. */
    final RequesterStream requests;
    final Spray spray = new Spray();
    final RateMeter rate;
    final Congestion congestion = new Congestion();
    /** What this QP's own packets say about its PMTU. */
    final Pmtu pmtu = new Pmtu();
    /** In an mrct evidence file, whether the device under test sent this flow; otherwise always true. */
    boolean judged = true;

    long frames;
    long bytes;
    long dataFrames;
    long retransmissions;
    long copies;
    long cnps;
    long ceMarked;
    long badIcrc;
    long lastNs;
    long lastFrame;
    /** The P_Key of the first frame other than a CNP, or -1. */
    int pkey = -1;
    long pkeyFrame;
    /** What the oracle is told of the flow's sender, rebuilt when the P_Key or the connection's tver is learnt. */
    org.metaroce.mrct.oracle.QpFacts facts;
    /** Source ports of the flow's non-data frames seen (up to 2 distinct matter). */
    int responsePort = -1;
    boolean responsePortsVary;
    /**
     * The recent frames' signatures, to spot a second copy of an answer; allocated at the flow's first answer (a flow
     * of requests only never needs them, and 10^5 flows may be held at once).
     */
    private long[] recent;
    private long[] recentNs;
    private long[] recentFrame;
    private int recentNext;

    /**
     * A flow whose first frame came from the link address {@code sourceMac} to {@code destinationMac} (48 bits each, 0
     * when the capture shows none). When both ends share an IP address and their MACs differ, each end is named by its
     * address and its MAC ({@code 127.0.0.1 (02:00:00:00:00:0d)}): the two directions are kept apart by
     * {@link FlowTable}, and the names keep them apart wherever an end is a key (pairing, the CNP scopes).
     */
    Flow(final byte[] source, final byte[] destination, final int dqpn, final long firstFrame, final long firstNs,
         final Connection connection, final long bucketOriginNs, final long sourceMac, final long destinationMac) {
        this.source = source;
        this.destination = destination;
        this.dqpn = dqpn;
        final boolean byMac = sourceMac != destinationMac && Arrays.equals(source, destination);
        this.sourceText = DecodedFrame.formatAddress(source) + (byMac ? " (" + mac(sourceMac) + ")" : "");
        this.destinationText = DecodedFrame.formatAddress(destination)
            + (byMac ? " (" + mac(destinationMac) + ")" : "");
        this.firstFrame = firstFrame;
        this.firstNs = firstNs;
        this.sourceMac = sourceMac;
        this.connection = connection;
        this.requests = new RequesterStream(this);
        this.rate = new RateMeter(bucketOriginNs);
        connection.flows.add(this);
    }

    /** A MAC of 48 bits as {@code 02:00:00:00:00:0d}. */
    static String mac(final long mac) {
        final StringBuilder text = new StringBuilder(17);
        for (int shift = 40; shift >= 0; shift -= 8) {
            text.append(String.format(Locale.ROOT, "%02x", mac >>> shift & 0xFF)).append(shift > 0 ? ":" : "");
        }
        return text.toString();
    }

    /** {@code 10.0.0.1 -> 10.0.0.2 qp 0x00001b}: who sends, to whom, to which QP. */
    String label() {
        return sourceText + " -> " + destinationText + " qp " + qpn(dqpn);
    }

    /** The dqpn of the flow of frames whose BTH could not be read. */
    static final int UNKNOWN_QP = 1 << 24;

    static String qpn(final int qpn) {
        return qpn == UNKNOWN_QP ? "unknown" : String.format(Locale.ROOT, "0x%06x", qpn);
    }

    /**
     * Remembers an answer frame's signature; returns the number of an earlier identical frame of the flow seen
     * within {@code windowNs}, or 0.
     */
    long copyOf(final long signature, final long tsNs, final long number, final long windowNs) {
        if (recent == null) {
            recent = new long[16];
            recentNs = new long[16];
            recentFrame = new long[16];
        }
        long match = 0;
        for (int i = 0; i < recent.length; i++) {
            if (recentFrame[i] != 0 && recent[i] == signature && tsNs - recentNs[i] <= windowNs) {
                match = recentFrame[i];
                break;
            }
        }
        recent[recentNext] = signature;
        recentNs[recentNext] = tsNs;
        recentFrame[recentNext] = number;
        recentNext = (recentNext + 1) & (recent.length - 1);
        return match;
    }
}
