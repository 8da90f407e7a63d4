package org.metaroce.mrct.analyzer.internal;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;

/** Waiting for work the analysis handed to other threads, with its failures rethrown as they were. */
public final class Futures {
    private Futures() {
    }

    /** The value of {@code future}, waiting for it; its exception or error rethrown unwrapped. */
    public static <T> T join(final Future<T> future) {
        try {
            return future.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while analysing", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (e.getCause() instanceof Error error) {
                throw error;
            }
            throw new IllegalStateException(e.getCause());
        }
    }
}
