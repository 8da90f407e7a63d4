package org.metaroce.mrct.spark.internal;

import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import org.metaroce.mrct.analyzer.CaptureAnalysis;
import org.metaroce.mrct.analyzer.CaptureAnalyzer;
import org.metaroce.mrct.analyzer.CaptureMatch;
import org.metaroce.mrct.analyzer.CaptureShards;
import org.metaroce.mrct.analyzer.Outcome;
import org.metaroce.mrct.harness.result.RunListener;
import org.metaroce.mrct.harness.spec.Specification;

/**
 * The class that calls the analyzer: everything the Spark job knows of {@code mrct analyze} goes through here, but for
 * the matching across captures in parts ({@link MatchAcross}, over {@code CaptureMatchParts}).
 * Executors analyse a capture whole ({@link CaptureAnalyzer#analyzeCapture}), plan and analyse the shards of a large
 * one ({@link CaptureShards}) or match the captures' frames ({@link CaptureAnalyzer#match}); the driver merges the
 * shards and reports everything with {@link CaptureAnalyzer#report(List, CaptureMatch, RunListener)}, as
 * {@code CaptureAnalyzer.analyze} reports the same captures.
 */
public final class AnalyzerSeam {
    private AnalyzerSeam() {
    }

    /** Analyses one capture file (a local path) named {@code name}, one of {@code count}, on the calling thread. */
    public static CaptureAnalysis analyzeOne(final Specification spec, final CaptureAnalyzer.Options options,
                                             final Path path, final String name, final int count) {
        return new CaptureAnalyzer(spec, options.withThreads(1)).analyzeCapture(path, name,
            CaptureAnalyzer.casePrefix(name, count));
    }

    /** Deals a capture's units of hosts to at most {@code maxShards} shards. */
    public static Work.ShardPlan plan(final Specification spec, final CaptureAnalyzer.Options options,
                                      final Path path, final int maxShards) {
        final CaptureShards.Plan plan = CaptureShards.plan(spec, options, path, maxShards);
        return new Work.ShardPlan(plan.shards(), plan.units(), plan.hosts(), plan.shardOf());
    }

    /** Analyses shard {@code shard} of a capture. */
    public static CaptureShards.Shard analyzeShard(final Specification spec, final CaptureAnalyzer.Options options,
                                                   final Path path, final String name, final int count,
                                                   final Work.ShardPlan plan, final int shard) {
        return CaptureShards.analyze(spec, options, path, name, CaptureAnalyzer.casePrefix(name, count),
            new CaptureShards.Plan(plan.shards(), plan.units(), plan.hosts(), plan.shardOf()), shard);
    }

    /** The capture's analysis from its shards. */
    public static CaptureAnalysis merge(final List<CaptureShards.Shard> shards, final String name, final int count) {
        return CaptureShards.merge(shards, CaptureAnalyzer.casePrefix(name, count));
    }

    /** Matches the captures' frames across them. */
    public static CaptureMatch match(final Specification spec, final CaptureAnalyzer.Options options,
                                     final List<Path> paths, final List<String> names) {
        return new CaptureAnalyzer(spec, options).match(paths, names);
    }

    /** Reports the captures analysed apart, in order, and their matching (or null). */
    public static Outcome report(final Specification spec, final CaptureAnalyzer.Options options, final Clock clock,
                                 final List<CaptureAnalysis> analyses, final CaptureMatch match,
                                 final RunListener listener) {
        return new CaptureAnalyzer(spec, options, clock).report(analyses, match, listener);
    }
}
