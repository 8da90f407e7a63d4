package org.metaroce.mrct.harness.engine;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.metaroce.mrct.harness.cases.MessageOp;
import org.metaroce.mrct.spi.WorkOpcode;
import org.metaroce.mrct.wire.header.SackethFlyweight;

/**
 * What a conforming MetaRoCE responder must have done with the packets the harness sent through {@code message}
 * steps (MetaRoCE v1 sections ORD, ACK, PLC, CMP): which PSNs it holds, its expected PSN, its MSN, its SACK bitmap,
 * the completions it owes, and (through {@link Region#place}) what its memory holds. PSNs here are relative to the
 * connection's initial PSN. Used by model expectations and by the invariants of generated cases.
 */
final class ResponderModel {
    /** A receive completion the device owes. */
    record ExpectedCompletion(WorkOpcode opcode, long length, Integer immediate, Integer invalidatedRkey) {
    }

    /** A message the harness sent. */
    record Message(int msn, MessageOp op, int firstPsn, int span, long length, Integer immediate,
                   Integer invalidatedRkey) {
        int lastPsn() {
            return firstPsn + span - 1;
        }
    }

    private final int window;
    private final TreeSet<Integer> delivered = new TreeSet<>();
    private final Map<Integer, Message> endingAt = new HashMap<>();
    private final List<ExpectedCompletion> completions = new ArrayList<>();
    private int expected;
    private int msn;
    private int highestCumulative = -1;

    ResponderModel(final int window) {
        this.window = window;
    }

    /** Registers a message before its packets are delivered. */
    void message(final Message message) {
        endingAt.put(message.lastPsn(), message);
    }

    /**
     * Records the arrival of a packet covering PSNs {@code [psn, psn + span)} (span &gt; 1 only for READ requests).
     * Returns true when a conforming responder accepts it as new (in the window and not a duplicate); the caller then
     * applies its placement to the memory model.
     */
    boolean deliver(final int psn, final int span) {
        if (psn < expected || psn - expected >= window || delivered.contains(psn)) {
            return false;
        }
        for (int k = 0; k < span; k++) {
            delivered.add(psn + k);
        }
        while (delivered.remove(expected)) {
            final Message ending = endingAt.remove(expected);
            expected++;
            if (ending != null) {
                complete(ending);
            }
        }
        return true;
    }

    private void complete(final Message message) {
        msn++;
        switch (message.op()) {
            case SEND:
            case SEND_IMM:
            case SEND_INV:
                completions.add(new ExpectedCompletion(WorkOpcode.RECV, message.length(), message.immediate(),
                    message.invalidatedRkey()));
                break;
            case WRITE_IMM:
                completions.add(new ExpectedCompletion(WorkOpcode.RECV_RDMA_WITH_IMM, message.length(),
                    message.immediate(), null));
                break;
            default:
                break;
        }
    }

    /** True when PSN {@code psn} (relative) has been delivered: before ePSN, or recorded after it. */
    boolean delivered(final int psn) {
        return psn < expected || this.delivered.contains(psn);
    }

    /** The expected PSN (relative). */
    int expectedPsn() {
        return expected;
    }

    /** Completed messages (the AETH MSN, before the modulo). */
    int msn() {
        return msn;
    }

    /** The SACK bitmap a conforming responder sends now. */
    long bitmap() {
        long bits = 0;
        for (final int psn : delivered) {
            final int i = psn - expected;
            if (i >= 0 && i < SackethFlyweight.BITMAP_BITS) {
                bits = SackethFlyweight.withBit(bits, i);
            }
        }
        return bits;
    }

    /** Receive completions owed so far, in order. */
    List<ExpectedCompletion> completions() {
        return completions;
    }

    /** Records a cumulative ACK seen from the device; false when it moved back (for generated-case invariants). */
    boolean observeCumulative(final int cumulative) {
        if (cumulative < highestCumulative) {
            return false;
        }
        highestCumulative = cumulative;
        return true;
    }
}
