package org.metaroce.mrct.harness.blame;

import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.metaroce.mrct.harness.result.FieldDiff;
import org.metaroce.mrct.wire.DecodedFrame;

/**
 * Everything blame may look at when a case fails. Built by the engine at the moment of the failure; nothing here is
 * re-parsed from text.
 *
 * @param shape what kind of expectation failed
 * @param checkRule the rule a check of the engine named itself (transmit rules, requester checker), or null
 * @param diffs the fields that differed (for a frame whose per-frame check failed while a step expected it, the diffs
 *     against that step's template come first)
 * @param expectedOpcodes the opcodes the failed step expected (empty when it expected no frame or any)
 * @param expectedValues fields the failed step expected with one exact value, evaluated (aeth.syndrome, bth.psn...)
 * @param actual the offending frame from the device, or null
 * @param sent the frames the harness had sent to the device on the failing connection, oldest first
 * @param sentBefore how many of {@code sent} were sent before the offending frame was received ({@code sent.size()}
 *     when there is no offending frame)
 * @param window the connection's receive window W
 * @param psnBase the connection's initial PSN of the harness's requests (the device's rq_psn), to put the device's
 *     acknowledgements in script space
 * @param counterChange the device's counters changed since the case started (read on demand), or null when the adapter
 *     cannot read counters
 * @param caseRules the rules the failing case cites, in its order
 * @param requester whether the device is the requester in the failing case (its send queue's completions)
 * @param naks the NAK and RNR NAK codes the device sent on the failing connection
 * @param cnpWithinInterval for an offending CNP, whether it left less than cnp_interval_ns after the device's previous
 *     CNP to the same QP (MR-CC-005); null when not known
 * @param responded the PSNs (script space, as {@code psnBase}) of the READ responses and atomic acknowledgements the
 *     device sent on the failing connection, in the evidence so far (the offending frame's successors included)
 * @param reportedEpsn the ePSN (sacketh.base, script space) of the last plain ACK the device sent on the failing
 *     connection after the harness's last request on it, or null when none came after that request
 * @param tver the transport version of the failing connection's QP (0 legacy, 1), -1 when unknown
 * @param sentInError whether the offending frame left the device's QP after the case had put it in ERROR or seen it
 *     there (MR-QP-005: a QP in ERROR sends nothing)
 * @param next the device's next request to the same QP after the offending frame (the engine lets the device run on
 *     where that frame decides the rule, as for a MIDDLE sent where a LAST was due), or null
 */
public record FailureContext(FailureShape shape, String checkRule, List<FieldDiff> diffs, List<String> expectedOpcodes,
                             Map<String, Long> expectedValues, DecodedFrame actual, List<SentPacket> sent, int sentBefore,
                             int window, int psnBase,
                             Supplier<Map<String, Long>> counterChange, List<String> caseRules,
                             boolean requester, java.util.Set<Integer> naks, Boolean cnpWithinInterval,
                             List<Integer> responded, Integer reportedEpsn, int tver, DecodedFrame next,
                             boolean sentInError) {
    /** A context without the device's next request. */
    public FailureContext(final FailureShape shape, final String checkRule, final List<FieldDiff> diffs,
                          final List<String> expectedOpcodes, final Map<String, Long> expectedValues,
                          final DecodedFrame actual, final List<SentPacket> sent, final int sentBefore,
                          final int window, final int psnBase, final Supplier<Map<String, Long>> counterChange,
                          final List<String> caseRules, final boolean requester, final java.util.Set<Integer> naks,
                          final Boolean cnpWithinInterval, final List<Integer> responded, final Integer reportedEpsn,
                          final int tver) {
        this(shape, checkRule, diffs, expectedOpcodes, expectedValues, actual, sent, sentBefore, window, psnBase,
            counterChange, caseRules, requester, naks, cnpWithinInterval, responded, reportedEpsn, tver, null, false);
    }

    /** A context without an acknowledgement reported after the last request. */
    public FailureContext(final FailureShape shape, final String checkRule, final List<FieldDiff> diffs,
                          final List<String> expectedOpcodes, final Map<String, Long> expectedValues,
                          final DecodedFrame actual, final List<SentPacket> sent, final int sentBefore,
                          final int window, final int psnBase, final Supplier<Map<String, Long>> counterChange,
                          final List<String> caseRules, final boolean requester, final java.util.Set<Integer> naks,
                          final Boolean cnpWithinInterval, final List<Integer> responded) {
        this(shape, checkRule, diffs, expectedOpcodes, expectedValues, actual, sent, sentBefore, window, psnBase,
            counterChange, caseRules, requester, naks, cnpWithinInterval, responded, null, -1, null, false);
    }

    public FailureContext {
        responded = List.copyOf(responded);
        naks = java.util.Set.copyOf(naks);
        diffs = List.copyOf(diffs);
        expectedOpcodes = List.copyOf(expectedOpcodes);
        expectedValues = Map.copyOf(expectedValues);
        sent = List.copyOf(sent);
        caseRules = List.copyOf(caseRules);
    }

    /** A context of a responder case in which the device sent no NAK. */
    public FailureContext(final FailureShape shape, final String checkRule, final List<FieldDiff> diffs,
                          final List<String> expectedOpcodes, final Map<String, Long> expectedValues,
                          final DecodedFrame actual, final List<SentPacket> sent, final int sentBefore,
                          final int window, final int psnBase, final Supplier<Map<String, Long>> counterChange,
                          final List<String> caseRules) {
        this(shape, checkRule, diffs, expectedOpcodes, expectedValues, actual, sent, sentBefore, window, psnBase,
            counterChange, caseRules, false, java.util.Set.of(), null, List.of(), null, -1, null, false);
    }

    /** True when {@code field} is among the diffs. */
    public boolean differs(final String field) {
        for (final FieldDiff diff : diffs) {
            if (diff.field().equals(field)) {
                return true;
            }
        }
        return false;
    }
}
