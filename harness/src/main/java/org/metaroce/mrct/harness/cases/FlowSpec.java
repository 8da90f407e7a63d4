package org.metaroce.mrct.harness.cases;

import java.util.List;

/**
 * A multi-message flow sent packet by packet in any interleaving, as generated cases describe them: the messages
 * (segmented as {@code message} steps would be, PSNs, MSNs and RSNs following the connection's counters in message
 * order) and the order in which their packets are sent, each possibly CE-marked, sent twice, or carrying AckReq.
 * While the flow runs, every frame from the device is checked against the responder model's invariants.
 *
 * @param connection connection name
 * @param messages the messages, in MSN order
 * @param packets the packets in sending order
 * @param settle how long to wait after the last packet for acknowledgements (null: ack_delay_max_ns)
 * @param line line in the case file
 */
public record FlowSpec(String connection, List<MessageSpec> messages, List<Packet> packets, Expr settle, int line) {
    /**
     * One packet to send.
     *
     * @param message index of the message in {@link #messages}
     * @param packet index of the packet in its message
     * @param ce CE-marked
     * @param duplicate sent twice in a row
     * @param ackReq sent with AckReq (otherwise AckReq only on a message's last packet)
     */
    public record Packet(int message, int packet, boolean ce, boolean duplicate, boolean ackReq) {
        /** The compact text form used in case files: {@code "2.0 ce dup ackreq"}. */
        public String text() {
            return message + "." + packet + (ce ? " ce" : "") + (duplicate ? " dup" : "") + (ackReq ? " ackreq" : "");
        }

        /** Parses the compact text form. */
        public static Packet parse(final String text) {
            final String[] words = text.trim().split("\\s+");
            final String[] indices = words[0].split("\\.");
            if (indices.length != 2) {
                throw new IllegalArgumentException("'" + text + "' is not MESSAGE.PACKET [ce] [dup] [ackreq]");
            }
            boolean ce = false;
            boolean duplicate = false;
            boolean ackReq = false;
            for (int i = 1; i < words.length; i++) {
                switch (words[i]) {
                    case "ce" -> ce = true;
                    case "dup" -> duplicate = true;
                    case "ackreq" -> ackReq = true;
                    default -> throw new IllegalArgumentException("unknown packet flag '" + words[i] + "' in '" + text
                        + "' (flags: ce, dup, ackreq)");
                }
            }
            try {
                return new Packet(Integer.parseInt(indices[0]), Integer.parseInt(indices[1]), ce, duplicate, ackReq);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("'" + text + "' is not MESSAGE.PACKET [ce] [dup] [ackreq]", e);
            }
        }
    }
}
