package org.metaroce.mrct.harness.generate;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A generated requester workload: work requests the device posts to a conforming peer, and what the network does to
 * the device's packets on the way (which transmissions it loses, which it duplicates, how much it reorders, which
 * acknowledgements it loses). It renders itself as an ordinary case file whose expectations are the invariants of a
 * conforming requester: every work request completes once, in order, with SUCCESS; memory on both sides ends as the
 * operations say; every lost PSN is sent again; and, on every frame, the checks the engine always makes (no
 * retransmission of a delivered PSN or without cause, the send window, PSN order). Its QP takes retry_cnt 7, so that
 * a device declaring fewer retries (Table B-1 allows 0) still has its recovery checked.
 *
 * @param seed the seed it was generated from
 * @param pmtu the PMTU
 * @param devicePsn the device's sq_psn
 * @param messages the work requests in posting order
 * @param drops transmissions the network loses: (relative PSN, which transmission, 1 the first)
 * @param duplicates PSNs whose first transmission is delivered twice
 * @param jitterNs random extra delay of each device frame (reorders)
 * @param latencyNs one-way latency
 * @param ackLossEvery every n-th acknowledgement frame to the device is lost (0: none)
 */
public record RequesterFlow(long seed, int pmtu, int devicePsn, List<Message> messages, List<Drop> drops,
                            List<Integer> duplicates, long jitterNs, long latencyNs, int ackLossEvery) {
    /**
     * One work request.
     *
     * @param op send, send_imm, write, write_imm or read
     * @param length bytes
     * @param localOffset offset of the local buffer (in {@code src} for sends and writes, {@code sink} for reads)
     * @param remoteOffset offset in the peer's {@code dst} (writes, reads)
     * @param immediate immediate data
     */
    public record Message(String op, int length, int localOffset, int remoteOffset, int immediate) {
        /** PSNs the message occupies at this PMTU. */
        public int span(final int pmtu) {
            return Math.max(1, (length + pmtu - 1) / pmtu);
        }

        boolean consumesReceive() {
            return op.startsWith("send") || op.equals("write_imm");
        }
    }

    /**
     * A lost transmission.
     *
     * @param psn relative PSN
     * @param copy 1 for the first transmission, 2 for the first retransmission, ...
     */
    public record Drop(int psn, int copy) {
    }

    public RequesterFlow {
        messages = List.copyOf(messages);
        drops = List.copyOf(drops);
        duplicates = List.copyOf(duplicates);
    }

    /** PSNs of all messages. */
    int psns() {
        return messages.stream().mapToInt(m -> m.span(pmtu)).sum();
    }

    private int receives() {
        return (int) messages.stream().filter(Message::consumesReceive).count();
    }

    private int largestSend() {
        return messages.stream().filter(m -> m.op().startsWith("send")).mapToInt(Message::length).max().orElse(1);
    }

    private static int end(final List<Message> messages, final boolean read, final boolean local) {
        int end = 1;
        for (final Message m : messages) {
            if (m.op().equals("read") == read) {
                end = Math.max(end, (local ? m.localOffset() : m.remoteOffset()) + m.length());
            }
        }
        return end;
    }

    /** The workload as a case file. */
    public String toYaml(final String id, final String note) {
        final int writeArea = end(messages, false, false);
        final StringBuilder y = new StringBuilder();
        y.append("id: ").append(id).append('\n');
        y.append("title: Generated requester workload of ").append(messages.size()).append(" work requests over a ")
            .append(drops.isEmpty() && jitterNs == 0 ? "clean" : "lossy, reordering").append(" network (seed ")
            .append(seed).append(")\n");
        y.append("rules: [MR-RTX-001, MR-RTX-002, MR-RTX-003, MR-RTX-004, MR-RTX-005, MR-REQ-003, MR-REQ-012, "
            + "MR-CMP-011, MR-CMP-012, MR-CMP-013, MR-PLC-003]\n");
        y.append("role: requester\n");
        y.append("description: >\n  ").append(note.replace("\n", "\n  ")).append('\n');
        y.append("# the recovery checked here needs retries whatever the declared default: the QP takes retry_cnt 7 "
            + "(section 3.1:\n# every device accepts 0 to 7); RTX-010-retry-exhaustion checks the other counts, 0 "
            + "included\nparams: {retry_cnt: 7}\n");
        y.append("setup:\n  connections:\n    - {name: q, peer: true, device_psn: ")
            .append(String.format(Locale.ROOT, "0x%06X", devicePsn)).append(", attrs: {pmtu: ").append(pmtu)
            .append("}}\n");
        y.append("  regions:\n");
        y.append("    - {name: src, length: ").append(end(messages, false, true))
            .append(", access: [local_write], fill: {random: ").append(seed & 0xFFFF).append("}}\n");
        y.append("    - {name: sink, length: ").append(end(messages, true, true))
            .append(", access: [local_write]}\n");
        y.append("    - {name: dst, on: peer, length: ").append(writeArea + end(messages, true, false))
            .append(", access: [local_write, remote_write, remote_read], fill: {random: ")
            .append((seed >>> 16) & 0xFFFF).append("}}\n");
        y.append("    - {name: inbox, on: peer, length: ").append(Math.max(1, receives()) * largestSend())
            .append(", access: [local_write]}\n");
        if (receives() > 0) {
            y.append("  receives:\n    - {qp: q, mr: inbox, length: ").append(largestSend()).append(", count: ")
                .append(receives()).append("}\n");
        }
        y.append("steps:\n");
        y.append("  - network:\n      latency: ").append(latencyNs).append("\n      jitter: ").append(jitterNs)
            .append('\n');
        if (!drops.isEmpty()) {
            final List<String> rules = new ArrayList<>();
            for (final Drop drop : drops) {
                rules.add("{psn: " + drop.psn() + ", copy: " + drop.copy() + "}");
            }
            y.append("      drop: [").append(String.join(", ", rules)).append("]\n");
        }
        if (!duplicates.isEmpty()) {
            y.append("      duplicate: ").append(duplicates).append('\n');
        }
        if (ackLossEvery > 0) {
            y.append("      drop_to_device: [{opcode: ACKNOWLEDGE, every: ").append(ackLossEvery).append("}]\n");
        }
        for (final Message m : messages) {
            y.append("  - post_send: {qp: q, op: ").append(m.op()).append(", mr: ")
                .append(m.op().equals("read") ? "sink" : "src").append(", offset: ").append(m.localOffset())
                .append(", length: ").append(m.length());
            if (m.op().equals("read")) {
                y.append(", remote_mr: dst, remote_offset: ").append(writeArea + m.remoteOffset());
            } else if (m.op().startsWith("write")) {
                y.append(", remote_mr: dst, remote_offset: ").append(m.remoteOffset());
            }
            if (m.op().endsWith("_imm")) {
                y.append(", imm: ").append(String.format(Locale.ROOT, "0x%08X", m.immediate()));
            }
            y.append("}\n");
        }
        // long enough for losses recovered by the timer whatever its value (on a real-time adapter the timers are
        // scaled up: docs/real-time-requester.md); 20 ms on virtual time, as before
        y.append("  - advance: \"max(20ms, 4 * rto_high_ns)\"\n");
        y.append("  - expect_completions:\n      qp: q\n      exact: true\n      entries:\n");
        for (int i = 0; i < messages.size(); i++) {
            y.append("        - {status: SUCCESS, wr_id: ").append(i + 1).append("}\n");
        }
        y.append("  - expect_memory: {mr: dst, model: true}\n");
        y.append("  - expect_memory: {mr: sink, model: true}\n");
        final List<String> lost = new ArrayList<>();
        for (final Drop drop : drops) {
            if (drops.stream().noneMatch(d -> d.psn() == drop.psn() && d.copy() > drop.copy())) {
                lost.add("{psn: " + drop.psn() + ", times: " + drop.copy() + "}");
            }
        }
        if (!lost.isEmpty()) {
            y.append("  - expect_traffic: {qp: q, retransmitted_at_least: [").append(String.join(", ", lost))
                .append("]}\n");
        }
        return y.toString();
    }
}
