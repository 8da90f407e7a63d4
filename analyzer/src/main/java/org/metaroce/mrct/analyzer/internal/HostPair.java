package org.metaroce.mrct.analyzer.internal;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * The flows between two hosts, and the pairing of the two directions of each connection.
 *
 * <p>The BTH names only the destination QP, so the frames of one connection are two flows: A to B naming B's QP, and
 * B to A naming A's QP, whatever the UDP source ports. When two hosts hold one connection this is plain; with several,
 * the PSNs decide: an acknowledgement (or read response, or atomic acknowledgement) from B to A answers the requests
 * of exactly one flow from A to B, the one whose recent PSNs it names. A response is used for pairing only when it
 * matches exactly one unpaired candidate; when it matches several, the pairing is ambiguous and the report says so.
 * Two ends that share an address (the harness and a device on one host) are told apart by their MACs: a response
 * pairs only with a flow from the MAC it is sent to ({@link FlowTable} keys their flows apart).
 */
final class HostPair {
    /** How far before the first PSN seen a response may point (the capture may start mid-connection). */
    static final int BEHIND = 4096;
    /** How far past the last PSN seen a response may point (requests the capture missed). */
    static final int AHEAD = 64;

    final List<Flow> flows = new ArrayList<>(2);

    void add(final Flow flow) {
        flows.add(flow);
        flow.hostPair = this;
    }

    /**
     * The unpaired flow, in the direction opposite to {@code responder}'s, whose requests a response carrying
     * {@code psn} answers; null when none does, or when several do (then {@code ambiguous} is recorded on the
     * connections involved, once).
     */
    Flow requesterFor(final Flow responder, final int psn) {
        Flow match = null;
        int matches = 0;
        for (final Flow candidate : flows) {
            if (candidate.peer != null || candidate == responder || !sameHosts(candidate, responder)) {
                continue;
            }
            if (candidate.requests.answers(psn)) {
                match = candidate;
                matches++;
            }
        }
        if (matches > 1) {
            for (final Flow candidate : flows) {
                if (candidate.peer == null && candidate != responder && sameHosts(candidate, responder)
                    && candidate.requests.answers(psn) && !candidate.connection.ambiguous) {
                    candidate.connection.ambiguous = true;
                    candidate.connection.note("pairing is ambiguous: answers from " + responder.label()
                        + " match the PSNs of " + matches + " flows from " + responder.destinationText
                        + "; the directions stay apart until one answer matches only one of them");
                }
            }
            return null;
        }
        return match;
    }

    /**
     * True when {@code responder} goes back the way {@code requester} came: between the same addresses and, where the
     * two ends share an address, between the same MACs (the flows' names carry them then, see {@link Flow}).
     */
    private static boolean sameHosts(final Flow requester, final Flow responder) {
        return Arrays.equals(requester.source, responder.destination)
            && Arrays.equals(requester.destination, responder.source)
            && requester.sourceText.equals(responder.destinationText)
            && requester.destinationText.equals(responder.sourceText);
    }

    /** Joins two flows into one connection: {@code first} keeps its connection, {@code second}'s merges into it. */
    static void pair(final Flow first, final Flow second) {
        first.peer = second;
        second.peer = first;
        final Connection kept = first.connection.firstFrame <= second.connection.firstFrame ? first.connection
            : second.connection;
        final Connection absorbed = kept == first.connection ? second.connection : first.connection;
        if (kept != absorbed) {
            kept.merge(absorbed);
            kept.flows.sort(Comparator.comparingLong(f -> f.firstFrame));
        }
    }
}
