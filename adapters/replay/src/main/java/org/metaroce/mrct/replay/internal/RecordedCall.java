package org.metaroce.mrct.replay.internal;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * One control-plane call of a recorded case: its JSON record of {@code evidence.pcapng} (reports/README.md,
 * {@code control} items).
 *
 * @param index its index among the case's calls
 * @param time its time relative to the case's start
 * @param op the {@code ControlPlane} method
 * @param args its arguments (a JSON object)
 * @param result what the device answered (JSON null for void calls and failures)
 * @param error null, or {@code rejected: ...}, {@code unsupported: ...}, {@code adapter: ...}, {@code unavailable: ...}
 * @param framesBefore how many of the case's frames came before the call, or -1 when the recording does not say
 */
public record RecordedCall(int index, long time, String op, JsonNode args, JsonNode result, String error,
                           int framesBefore) {
}
