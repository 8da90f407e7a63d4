package org.metaroce.mrct.harness.cases;

import java.util.List;
import java.util.Map;

/**
 * A whole message for the harness (as requester) to send, segmented by PMTU with every packet's PSN, PLETH, RETH and
 * payload derived, and sent in a chosen order with chosen packets dropped, duplicated or CE-marked. The engine also
 * updates its model of what a conforming responder must then hold (memory, ePSN, SACK bitmap, MSN, completions).
 *
 * @param connection connection name
 * @param op the kind of message
 * @param region the remote region (write, read, atomics), or null
 * @param regionOffset offset in the region
 * @param length message length in bytes (8 for atomics)
 * @param payload the message's bytes (default: random, seeded by the run seed and the message number)
 * @param immediate immediate data (send_imm, write_imm)
 * @param invalidate region whose R_Key a send_inv invalidates
 * @param swapAdd swap (cmp_swap) or add (fetch_add) value
 * @param compare compare value (cmp_swap)
 * @param rkey R_Key override (default: the region's)
 * @param pmtu PMTU override for segmentation (default: the connection's)
 * @param order packet indices in sending order (default 0..n-1)
 * @param drop packet indices not sent
 * @param duplicate packet indices sent twice
 * @param ce packet indices sent CE-marked
 * @param ackReq which packets carry AckReq
 * @param ackReqIndices the indices when {@code ackReq} lists them
 * @param fields raw field overrides for every packet
 * @param gap time between two consecutive frames of the message as sent (null or 0: all at once)
 * @param line line in the case file
 */
public record MessageSpec(String connection, MessageOp op, String region, Expr regionOffset, Expr length,
                          PayloadSpec payload, Expr immediate, String invalidate, Expr swapAdd, Expr compare,
                          Expr rkey, Expr pmtu, List<Expr> order, List<Expr> drop, List<Expr> duplicate, List<Expr> ce,
                          AckReqMode ackReq, List<Expr> ackReqIndices, Map<String, Expr> fields, Expr gap,
                          int line) {
}
