package org.metaroce.mrct.harness.cases;

import java.util.List;
import java.util.Map;
import org.metaroce.mrct.wire.HeaderKind;
import org.metaroce.mrct.wire.Opcode;

/**
 * One frame for the harness to send: a connection's template (addresses, DestQP, P_Key, TVer) plus whatever the case
 * sets. Null members keep the default: the connection's next PSN, the current message's MSN and RSN, F and L from the
 * opcode, RETH from {@code region}, a correct ICRC.
 *
 * @param connection connection name (null: the case's only connection)
 * @param opcode the opcode
 * @param psn PSN, relative to the connection's initial PSN
 * @param ackReq AckReq
 * @param msn PLETH.MSN
 * @param first PLETH F
 * @param last PLETH L
 * @param messageOffset PLETH.offset
 * @param rsn PLETH.RSN
 * @param region region for RETH or AtomicETH (VA = region VA + {@code regionOffset}, R_Key = region's)
 * @param regionOffset offset in the region
 * @param dmaLength RETH DMA length (default: the payload length)
 * @param immediate ImmDt
 * @param invalidate region whose R_Key goes in IETH
 * @param swapAdd AtomicETH swap or add value
 * @param compare AtomicETH compare value
 * @param payload payload bytes
 * @param ecn ECN codepoint (0..3)
 * @param network the IP version (null: the connection's)
 * @param vlan VLAN ID (null: the connection's), -1 for none
 * @param fields raw field overrides (reserved bits, lengths, ICRC, ...); {@code bth.psn} and {@code sacketh.base}
 *     are taken in script space, everything else as written
 * @param headers extension headers to use instead of the opcode's
 * @param padLength pad bytes actually written
 * @param padFill pad byte value
 * @param truncate cut the frame to this many bytes
 * @param trailer bytes of zero trailer after the ICRC
 * @param badIcrc send a wrong ICRC (the right one with its low bit flipped)
 * @param validUdpChecksum compute the UDP checksum instead of sending 0
 * @param tver BTH.TVer (null: the connection's)
 * @param badUdpChecksum send a wrong non-zero UDP checksum (the right one with its low bit flipped)
 * @param ipOptions bytes of IPv4 options to insert after the 20-byte IPv4 header (IHL, total length, header
 *     checksum and ICRC follow unless the case sets them), or null for none
 * @param line line in the case file
 */
public record PacketSpec(String connection, Opcode opcode, Expr psn, Boolean ackReq, Expr msn, Boolean first,
                         Boolean last, Expr messageOffset, Expr rsn, String region, Expr regionOffset, Expr dmaLength,
                         Expr immediate, String invalidate, Expr swapAdd, Expr compare, PayloadSpec payload, Expr ecn,
                         IpVersion network, Expr vlan, Map<String, Expr> fields, List<HeaderKind> headers,
                         Expr padLength, Expr padFill, Expr truncate, Expr trailer, boolean badIcrc,
                         boolean validUdpChecksum, Expr tver, boolean badUdpChecksum, byte[] ipOptions, int line) {
}
