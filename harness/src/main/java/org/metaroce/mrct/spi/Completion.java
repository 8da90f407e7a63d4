package org.metaroce.mrct.spi;

/**
 * A completion queue entry (MetaRoCE v1 sections 7.2 and 7.5).
 *
 * @param qpn the QP the work request belonged to
 * @param wrId the work request's identifier
 * @param opcode what completed
 * @param status the outcome
 * @param byteLength bytes received (receive completions) or read
 * @param immediate the immediate data, when {@link #hasImmediate}
 * @param hasImmediate whether the message carried immediate data
 * @param invalidatedRkey the R_Key a SEND WITH INVALIDATE invalidated, when {@link #hasInvalidate}
 * @param hasInvalidate whether the message invalidated an R_Key
 * @param solicited the solicited-event flag of the message's last packet (receive completions)
 * @param timestampNanos when the completion was posted, on the adapter's clock
 */
public record Completion(int qpn, long wrId, WorkOpcode opcode, CompletionStatus status, long byteLength,
                         int immediate, boolean hasImmediate, int invalidatedRkey, boolean hasInvalidate,
                         boolean solicited, long timestampNanos) {
}
