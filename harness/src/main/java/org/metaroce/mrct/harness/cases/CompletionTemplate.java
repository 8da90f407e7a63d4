package org.metaroce.mrct.harness.cases;

import org.metaroce.mrct.spi.CompletionStatus;
import org.metaroce.mrct.spi.WorkOpcode;

/**
 * An expected completion. Null members are not checked.
 *
 * @param opcode RECV, RECV_RDMA_WITH_IMM, SEND, RDMA_WRITE, RDMA_READ, ...
 * @param status SUCCESS, REM_ACCESS_ERR, WR_FLUSH_ERR, ...
 * @param length byte length
 * @param immediate immediate data
 * @param invalidated the R_Key invalidated (a region name or a number)
 * @param wrId work request ID
 * @param solicited the solicited-event flag (bth.se of the message's last packet)
 * @param line line in the case file
 */
public record CompletionTemplate(WorkOpcode opcode, CompletionStatus status, Expr length, Expr immediate,
                                 Expr invalidated,
                                 Expr wrId, Boolean solicited, int line) {
}
