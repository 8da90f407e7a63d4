package org.metaroce.mrct.harness.generate;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.metaroce.mrct.harness.cases.FlowSpec;

/**
 * A generated multi-message flow to a responder: messages, the order their packets are sent in (a permutation, with
 * some packets CE-marked or duplicated; a "lost" packet is simply one that comes late), and the initial PSN. It
 * renders itself as an ordinary case file, so a failing flow, once shrunk, is kept and rerun like any other case.
 *
 * @param seed the seed it was generated from (for the record)
 * @param pmtu the PMTU
 * @param psn the initial PSN of the connection (script space starts there)
 * @param messages the messages in MSN order
 * @param packets the packets in sending order
 */
public record GeneratedFlow(long seed, int pmtu, int psn, List<Message> messages, List<FlowSpec.Packet> packets) {
    /**
     * One message.
     *
     * @param op write, write_imm, send or send_imm
     * @param offset where in the region a write lands
     * @param length bytes
     * @param immediate immediate data (ignored for plain ops)
     */
    public record Message(String op, int offset, int length, int immediate) {
        /** Packets of the message at this PMTU. */
        public int packets(final int pmtu) {
            return Math.max(1, (length + pmtu - 1) / pmtu);
        }

        boolean consumesWqe() {
            return op.startsWith("send") || op.equals("write_imm");
        }
    }

    public GeneratedFlow {
        messages = List.copyOf(messages);
        packets = List.copyOf(packets);
    }

    /** Bytes of region the writes need. */
    int regionLength() {
        int end = 4096;
        for (final Message m : messages) {
            if (m.op().startsWith("write")) {
                end = Math.max(end, m.offset() + m.length());
            }
        }
        return end;
    }

    /** Largest send. */
    int receiveLength() {
        int max = 1;
        for (final Message m : messages) {
            if (m.op().startsWith("send")) {
                max = Math.max(max, m.length());
            }
        }
        return max;
    }

    /** Receive WQEs the flow consumes: one per SEND and per RDMA WRITE WITH IMMEDIATE. */
    int receives() {
        return (int) messages.stream().filter(Message::consumesWqe).count();
    }

    /** Duplicates the responder will see (each counts in duplicate_received). */
    int duplicates() {
        return (int) packets.stream().filter(FlowSpec.Packet::duplicate).count();
    }

    /** CE-marked packets the responder will see (duplicates of a CE-marked packet count twice). */
    int ceMarked() {
        int n = 0;
        for (final FlowSpec.Packet p : packets) {
            if (p.ce()) {
                n += p.duplicate() ? 2 : 1;
            }
        }
        return n;
    }

    /** The flow as a case file. */
    public String toYaml(final String id, final String note) {
        final StringBuilder y = new StringBuilder();
        y.append("id: ").append(id).append('\n');
        y.append("title: Generated flow of ").append(messages.size()).append(" messages in ").append(packets.size())
            .append(" packets (seed ").append(seed).append(")\n");
        y.append("rules: [MR-ORD-002, MR-ORD-005, MR-ACK-002, MR-ACK-010, MR-PLC-001, MR-PLC-002, MR-CMP-003, "
            + "MR-ORD-009, MR-CC-005]\n");
        y.append("description: >\n  ").append(note.replace("\n", "\n  ")).append('\n');
        y.append("params: {pmtu: ").append(pmtu).append("}\n");
        y.append("setup:\n  connections:\n    - name: q\n      psn: ").append(String.format(Locale.ROOT, "0x%06X", psn))
            .append("\n      attrs: {pmtu: ").append(pmtu).append("}\n");
        y.append("  regions:\n    - name: m\n      length: ").append(regionLength())
            .append("\n      access: [local_write, remote_write]\n      fill: {constant: 0x5A}\n");
        y.append("    - name: r\n      length: ").append(Math.max(1, receives()) * receiveLength())
            .append("\n      access: [local_write]\n      fill: {constant: 0xA5}\n");
        if (receives() > 0) {
            y.append("  receives:\n    - {qp: q, mr: r, length: ").append(receiveLength()).append(", count: ")
                .append(receives()).append("}\n");
        }
        y.append("steps:\n  - flow:\n      qp: q\n      messages:\n");
        for (final Message m : messages) {
            y.append("        - {op: ").append(m.op());
            if (m.op().startsWith("write")) {
                y.append(", mr: m, offset: ").append(m.offset());
            }
            y.append(", length: ").append(m.length());
            if (m.op().endsWith("_imm")) {
                y.append(", imm: ").append(String.format(Locale.ROOT, "0x%08X", m.immediate()));
            }
            y.append("}\n");
        }
        final List<String> texts = new ArrayList<>();
        for (final FlowSpec.Packet p : packets) {
            texts.add('"' + p.text() + '"');
        }
        y.append("      packets: [").append(String.join(", ", texts)).append("]\n");
        y.append("  - expect_memory: {mr: m, model: true}\n");
        y.append("  - expect_memory: {mr: r, model: true}\n");
        y.append("  - expect_completions: {qp: q, model: true}\n");
        y.append("  - expect_counters: {duplicate_received: ").append(duplicates()).append(", ce_received: ")
            .append(ceMarked()).append(", exact: true}\n");
        return y.toString();
    }
}
