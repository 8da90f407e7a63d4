package org.metaroce.mrct.analyzer.internal;

import java.util.AbstractList;
import java.util.ArrayList;
import java.util.List;

/**
 * A list that keeps the first {@code limit} lines added to it and counts the others: the failing checks of an analysis
 * of 10^5 connections, listed as far as a person reads them, counted in full.
 */
public final class Sample extends AbstractList<String> {
    private final List<String> kept = new ArrayList<>();
    private final int limit;
    private int notKept;

    public Sample(final int limit) {
        if (limit < 0) {
            throw new IllegalArgumentException("limit cannot be negative: " + limit);
        }
        this.limit = limit;
    }

    /** Appends {@code line} if fewer than the limit are kept, else counts it; always true. */
    @Override
    public void add(final int index, final String line) {
        if (index != size()) {
            throw new UnsupportedOperationException("a sample is appended to only");
        }
        if (kept.size() < limit) {
            kept.add(line);
        } else {
            notKept++;
        }
        modCount++;
    }

    @Override
    public String get(final int index) {
        return kept.get(index);
    }

    /** The lines kept. */
    @Override
    public int size() {
        return kept.size();
    }

    /** The lines added beyond the limit, not kept. */
    public int notKept() {
        return notKept;
    }
}
