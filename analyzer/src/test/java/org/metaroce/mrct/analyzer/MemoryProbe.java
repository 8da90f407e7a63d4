package org.metaroce.mrct.analyzer;

import java.nio.file.Path;
import java.util.List;
import org.metaroce.mrct.harness.result.CaseResult;
import org.metaroce.mrct.harness.result.RunListener;
import org.metaroce.mrct.harness.spec.Specification;

/**
 * {@code MemoryProbe FILE THREADS}: analyses FILE in this JVM (run with a small -Xmx by {@link ManyConnectionsTest})
 * with a listener that keeps nothing, and prints {@code connections=N cases=M}.
 */
public final class MemoryProbe {
    private MemoryProbe() {
    }

    public static void main(final String[] args) {
        final int[] cases = {0};
        final Outcome outcome = new CaptureAnalyzer(Specification.bundled(), CaptureAnalyzer.Options.defaults()
            .withThreads(Integer.parseInt(args[1]))).analyze(List.of(Path.of(args[0])), new RunListener() {
                @Override
                public void caseFinished(final CaseResult result) {
                    cases[0]++;
                }
            });
        System.out.println("connections=" + outcome.files().get(0).connections() + " cases=" + cases[0]
            + " frames=" + outcome.files().get(0).frames());
    }
}
