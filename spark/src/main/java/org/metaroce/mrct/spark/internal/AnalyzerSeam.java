package org.metaroce.mrct.spark.internal;

import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import org.metaroce.mrct.analyzer.CaptureAnalysis;
import org.metaroce.mrct.analyzer.CaptureAnalyzer;
import org.metaroce.mrct.analyzer.Outcome;
import org.metaroce.mrct.harness.result.RunListener;
import org.metaroce.mrct.harness.spec.Specification;

/**
 * The one class that calls the analyzer: everything the Spark job knows of {@code mrct analyze} goes through here.
 * Executors analyse a capture each with {@link CaptureAnalyzer#analyzeCapture}; the driver reports them together with
 * {@link CaptureAnalyzer#report}, as {@code CaptureAnalyzer.analyze} reports the same captures analysed on their own
 * (without the matching of frames across captures, which needs them all in one place).
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

    /** Reports the captures analysed apart, in order. */
    public static Outcome report(final Specification spec, final CaptureAnalyzer.Options options, final Clock clock,
                                 final List<CaptureAnalysis> analyses, final RunListener listener) {
        return new CaptureAnalyzer(spec, options, clock).report(analyses, listener);
    }
}
