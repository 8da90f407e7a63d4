package org.metaroce.mrct.harness.generate;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Generates random requester workloads from a seed (our own small generator, as for {@link FlowGenerator}): one to six
 * work requests of every segmenting kind and READs, lengths from zero to sixteen PMTUs, sometimes an sq_psn just
 * before the 2^24 wrap; and a network that loses about one transmission in ten (a quarter of those losing the
 * retransmission too), duplicates a few, reorders within the loss-inference bounds, and sometimes loses every n-th
 * acknowledgement.
 */
public final class RequesterFlowGenerator {
    private static final String[] OPS = {"write", "write_imm", "send", "send_imm", "read"};
    private static final int[] PMTUS = {256, 512, 1024, 2048, 4096};

    private RequesterFlowGenerator() {
    }

    /** The {@code index}-th workload of a run seeded with {@code seed}, for a device of the default max_pmtu. */
    public static RequesterFlow generate(final long seed, final int index) {
        return generate(seed, index, 4096);
    }

    /**
     * The {@code index}-th workload of a run seeded with {@code seed} for a device declaring {@code maxPmtu}: the PMTU
     * is one of those up to max_pmtu (with 4096, the workloads of {@link #generate(long, int)}).
     */
    public static RequesterFlow generate(final long seed, final int index, final long maxPmtu) {
        final long flowSeed = (seed ^ 0x5EED_0F_4E9L) * 0x9E3779B97F4A7C15L + index;
        final SplittableRandom random = new SplittableRandom(flowSeed);
        final int pmtu = PMTUS[random.nextInt(FlowGenerator.allowed(maxPmtu))];
        final int count = 1 + random.nextInt(6);
        final List<RequesterFlow.Message> messages = new ArrayList<>();
        int local = 0;
        int sink = 0;
        int remote = 0;
        int readArea = 0;
        for (int i = 0; i < count; i++) {
            final String op = OPS[random.nextInt(OPS.length)];
            final int length = switch (random.nextInt(4)) {
                case 0 -> random.nextInt(3) == 0 ? 0 : 1 + random.nextInt(pmtu);
                case 1 -> pmtu * (1 + random.nextInt(16));
                default -> random.nextInt(pmtu * 16 + 1);
            };
            if (op.equals("read")) {
                messages.add(new RequesterFlow.Message(op, length, sink, readArea, 0));
                sink += length;
                readArea += length;
            } else {
                messages.add(new RequesterFlow.Message(op, length, local, remote, random.nextInt()));
                local += length;
                if (op.startsWith("write")) {
                    remote += length + random.nextInt(64);
                }
            }
        }
        final List<RequesterFlow.Drop> drops = new ArrayList<>();
        final List<Integer> duplicates = new ArrayList<>();
        int psn = 0;
        for (final RequesterFlow.Message m : messages) {
            final int sent = m.op().equals("read") ? 1 : m.span(pmtu);
            for (int k = 0; k < sent; k++) {
                if (random.nextInt(10) == 0) {
                    drops.add(new RequesterFlow.Drop(psn + k, 1));
                    if (random.nextInt(4) == 0) {
                        drops.add(new RequesterFlow.Drop(psn + k, 2));
                    }
                } else if (random.nextInt(20) == 0) {
                    duplicates.add(psn + k);
                }
            }
            psn += m.span(pmtu);
        }
        final int devicePsn = random.nextInt(4) == 0 ? 0xFFFFFF - random.nextInt(32) : random.nextInt(1 << 24);
        final long jitter = random.nextInt(3) == 0 ? 0 : 100L * random.nextInt(13);
        final long latency = 500L + 500L * random.nextInt(5);
        final int ackLoss = random.nextInt(4) == 0 ? 2 + random.nextInt(5) : 0;
        return new RequesterFlow(flowSeed, pmtu, devicePsn, messages, drops, duplicates, jitter, latency, ackLoss);
    }
}
