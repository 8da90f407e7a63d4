package org.metaroce.mrct.harness.generate;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;
import org.metaroce.mrct.harness.cases.FlowSpec;

/**
 * Generates random multi-message flows from a seed (a small generator of our own: property tests here are seeded
 * JUnit tests, not jqwik, whose maintainer forbids use by automated agents from 1.10). Every flow stays inside the
 * responder's window (at most 48 PSNs, and at most recv_window), so a conforming responder must accept every
 * packet whatever the order; packets are permuted (near-sorted or fully shuffled), some are held back to the end as a
 * lost packet's retransmission would be, some duplicated, some CE-marked, and the last one carries AckReq.
 */
public final class FlowGenerator {
    private static final String[] OPS = {"write", "write_imm", "send", "send_imm"};
    private static final int[] PMTUS = {256, 512, 1024, 2048, 4096};

    private FlowGenerator() {
    }

    /** The {@code index}-th flow of a run seeded with {@code seed}, for a device of the specification's defaults. */
    public static GeneratedFlow generate(final long seed, final int index) {
        return generate(seed, index, 4096, 128);
    }

    /**
     * The {@code index}-th flow of a run seeded with {@code seed} for a device declaring {@code maxPmtu} and {@code
     * recvWindow}: the PMTU is one of those up to max_pmtu and the flow spans at most min(48, recv_window) PSNs. With
     * the defaults (4096, at least 48) the flows are those of {@link #generate(long, int)}.
     */
    public static GeneratedFlow generate(final long seed, final int index, final long maxPmtu, final long recvWindow) {
        final long flowSeed = seed * 0x9E3779B97F4A7C15L + index;
        final SplittableRandom random = new SplittableRandom(flowSeed);
        final int pmtu = PMTUS[random.nextInt(allowed(maxPmtu))];
        final int span = (int) Math.min(48, recvWindow);
        final int count = 1 + random.nextInt(6);
        final List<GeneratedFlow.Message> messages = new ArrayList<>();
        int psns = 0;
        int writeOffset = 0;
        for (int i = 0; i < count && psns < span - 8; i++) {
            final String op = OPS[random.nextInt(OPS.length)];
            final int maxPackets = Math.min(8, span - psns);
            int length = switch (random.nextInt(5)) {
                case 0 -> 0;
                case 1 -> pmtu * (1 + random.nextInt(maxPackets));
                default -> random.nextInt(pmtu * maxPackets + 1);
            };
            length = Math.min(length, pmtu * maxPackets);
            final GeneratedFlow.Message message = new GeneratedFlow.Message(op, writeOffset, length,
                random.nextInt());
            messages.add(message);
            psns += message.packets(pmtu);
            if (op.startsWith("write")) {
                writeOffset += length + random.nextInt(64);
            }
        }
        final List<FlowSpec.Packet> order = new ArrayList<>();
        for (int m = 0; m < messages.size(); m++) {
            for (int p = 0; p < messages.get(m).packets(pmtu); p++) {
                order.add(new FlowSpec.Packet(m, p, false, false, false));
            }
        }
        permute(order, random);
        final List<FlowSpec.Packet> packets = new ArrayList<>();
        for (int i = 0; i < order.size(); i++) {
            final FlowSpec.Packet p = order.get(i);
            packets.add(new FlowSpec.Packet(p.message(), p.packet(), random.nextInt(10) == 0,
                random.nextInt(10) == 0, i == order.size() - 1));
        }
        final int psn = random.nextInt(4) == 0 ? 0xFFFFFF - random.nextInt(64) : random.nextInt(1 << 24);
        return new GeneratedFlow(flowSeed, pmtu, psn, messages, packets);
    }

    /** How many of the PMTUs (256, 512, ...) are at most {@code maxPmtu}: the first that many are allowed. */
    static int allowed(final long maxPmtu) {
        int n = 0;
        while (n < PMTUS.length && PMTUS[n] <= maxPmtu) {
            n++;
        }
        return Math.max(1, n);
    }

    private static void permute(final List<FlowSpec.Packet> order, final SplittableRandom random) {
        switch (random.nextInt(4)) {
            case 0 -> Collections.shuffle(order, new java.util.Random(random.nextLong()));
            case 1 -> {
                // held back: a few packets move to the end, as retransmissions of lost packets arrive late
                final int lost = 1 + random.nextInt(Math.max(1, order.size() / 4));
                for (int k = 0; k < lost && order.size() > 1; k++) {
                    order.add(order.remove(random.nextInt(order.size())));
                }
            }
            default -> {
                // near-sorted: neighbours swap, as packets sprayed over paths of similar delay do
                for (int i = 0; i + 1 < order.size(); i++) {
                    if (random.nextInt(3) == 0) {
                        Collections.swap(order, i, i + 1);
                    }
                }
            }
        }
    }
}
