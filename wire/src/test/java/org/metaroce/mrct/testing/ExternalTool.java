package org.metaroce.mrct.testing;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/** Runs external programs (tshark, python3 with scapy, chromium, ip) for cross-checks, with a timeout. */
public final class ExternalTool {
    private ExternalTool() {
    }

    /** Result of a run. */
    public record Result(int exitCode, String stdout, String stderr) {
    }

    /** True when {@code command} runs and exits 0 within 60 s. */
    public static boolean works(final String... command) {
        try {
            return run(60, command).exitCode() == 0;
        } catch (IllegalStateException e) {
            return false;
        }
    }

    /** Skips the calling test, with the reason, unless {@code command} runs and exits 0. */
    public static void assumeWorks(final String why, final String... command) {
        Assumptions.assumeTrue(works(command),
            "skipped: " + why + " (`" + String.join(" ", command) + "` is not available here; .ci/run installs it)");
    }

    /** Runs {@code command}, waiting at most {@code timeoutSeconds}; stdin is closed. */
    public static Result run(final int timeoutSeconds, final String... command) {
        return run(timeoutSeconds, List.of(command));
    }

    /** Runs {@code command}, waiting at most {@code timeoutSeconds}; stdin is closed. */
    public static Result run(final int timeoutSeconds, final List<String> command) {
        final Process process;
        try {
            process = new ProcessBuilder(command).start();
        } catch (IOException e) {
            throw new IllegalStateException("cannot start " + command.get(0) + ": " + e.getMessage(), e);
        }
        try {
            process.getOutputStream().close();
            final CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> read(process.getInputStream()));
            final CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> read(process.getErrorStream()));
            if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException(String.join(" ", command) + " did not finish in " + timeoutSeconds
                    + " s");
            }
            return new Result(process.exitValue(), out.join(), err.join());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private static String read(final InputStream in) {
        try (in) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }
}
