package org.metaroce.mrct.spark.internal;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

/**
 * One task of the job.
 *
 * @param kind     what to do
 * @param capture  the capture (for {@link Kind#MATCH}, the first of {@code captures})
 * @param count    the number of captures of the job (for the case IDs' prefix)
 * @param shard    the shard to analyse ({@link Kind#SHARD}), or the most shards to plan ({@link Kind#PLAN})
 * @param plan     the capture's plan ({@link Kind#SHARD}), else null
 * @param captures every capture of the job ({@link Kind#MATCH}), else empty
 */
public record Work(Kind kind, Capture capture, int count, int shard, ShardPlan plan, ArrayList<Capture> captures)
    implements Serializable {
    private static final long serialVersionUID = 1L;

    /** What a task does. */
    public enum Kind {
        /** Analyse a capture whole. */
        WHOLE,
        /** Read a capture to deal its units of hosts to shards. */
        PLAN,
        /** Analyse one shard of a capture. */
        SHARD,
        /** Match the frames of every capture of the job across them. */
        MATCH
    }

    public Work(final Kind kind, final Capture capture, final int count, final int shard, final ShardPlan plan,
                final List<Capture> captures) {
        this(kind, capture, count, shard, plan, new ArrayList<>(captures));
    }

    /** The bytes the task reads, for scheduling the longest first. */
    public long cost() {
        return switch (kind) {
            case MATCH -> captures.stream().mapToLong(c -> Math.max(0, c.bytes())).sum();
            case SHARD -> Math.max(0, capture.bytes()) / Math.max(1, plan.shards());
            default -> Math.max(0, capture.bytes());
        };
    }

    /** A capture's plan on its way to the shards' tasks: {@code CaptureShards.Plan} as plain arrays. */
    public record ShardPlan(int shards, int units, long[] hosts, int[] shardOf) implements Serializable {
        private static final long serialVersionUID = 1L;
    }

    /**
     * What a task found, as JSON ({@link CaseCodec}).
     *
     * @param kind  the task's kind
     * @param index the capture's index (0 for {@link Kind#MATCH})
     * @param shard the shard ({@link Kind#SHARD}), else 0
     * @param json  a {@code CaptureAnalysis}, a {@code ShardPlan}, a {@code CaptureShards.Shard} or a
     *              {@code CaptureMatch}
     */
    public record Result(Kind kind, int index, int shard, String json) implements Serializable {
        private static final long serialVersionUID = 1L;
    }
}
