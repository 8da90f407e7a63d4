package org.metaroce.mrct.spi;

/**
 * A completion queue entry.
 *
 * @param qpn the QP the work request belonged to
 * @param wrId the work request's identifier
 * @param opcode what completed
 * @param status the outcome
 * @param byteLength bytes received (receive completions) or transferred
 * @param immediate the immediate data, when {@link #hasImmediate}
 * @param hasImmediate whether the message carried immediate data
 * @param invalidatedRkey the R_Key a SEND WITH INVALIDATE invalidated, when {@link #hasInvalidate}
 * @param hasInvalidate whether the message invalidated an R_Key
 * @param timestampNanos when the completion was posted, on the adapter's clock
 */
public record Completion(int qpn, long wrId, WorkOpcode opcode, CompletionStatus status, long byteLength,
                         int immediate, boolean hasImmediate, int invalidatedRkey, boolean hasInvalidate,
                         long timestampNanos) {
}
