package org.metaroce.mrct.spi;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.function.LongSupplier;

/**
 * Collects a JVM's garbage between cases on real time once the heap's old generation holds more than
 * {@link #COLLECT_ABOVE}. A collection pause inside a case is lateness (a receive path that does not look, frames that
 * leave late): the case ends INCONCLUSIVE. Measured over UDP (docs/real-time-requester.md): after
 * QP-011-max-qp-in-rts (65,536 QPs through the agent) the old generation held hundreds of megabytes that only a full
 * collection frees, and every young collection after it paused 80 to 200 ms, inside the cases that followed. One
 * full collection between two cases costs no window anything. On virtual time a pause delays nothing the case judges,
 * so nothing is done there.
 *
 * <p>Both ends of a real-time run use it: the harness's runner before each case, and a software device in its own JVM
 * (the reference NIC behind {@code mrct serve}) at each reset, when no case is running. It is plumbing of the run,
 * not a judgement: it lives here, beside the adapter SPI, because the reference NIC may import nothing of the engine
 * that judges it.
 */
public final class BetweenCases {
    /** Old-generation occupancy above which a collection runs before the next case. */
    public static final long COLLECT_ABOVE = 192L << 20;

    private final boolean realTime;
    private final LongSupplier oldGeneration;
    private final Runnable collect;
    private int collections;

    /**
     * @param realTime whether the run is on real time (otherwise nothing is ever collected)
     * @param oldGeneration the old generation's occupancy in bytes, now
     * @param collect what collects it
     */
    public BetweenCases(final boolean realTime, final LongSupplier oldGeneration, final Runnable collect) {
        this.realTime = realTime;
        this.oldGeneration = oldGeneration;
        this.collect = collect;
    }

    /** For this JVM: the old generation's pools (or the whole heap where none is named so) and {@link System#gc}. */
    public static BetweenCases forThisJvm(final boolean realTime) {
        return new BetweenCases(realTime, BetweenCases::oldGenerationUsed, System::gc);
    }

    /**
     * Before a case (no case running): collects when on real time and the old generation is above
     * {@link #COLLECT_ABOVE}; returns whether it did.
     */
    public boolean beforeCase() {
        if (realTime && oldGeneration.getAsLong() > COLLECT_ABOVE) {
            collect.run();
            collections++;
            return true;
        }
        return false;
    }

    /** Collections made so far. */
    public int collections() {
        return collections;
    }

    private static long oldGenerationUsed() {
        long old = 0;
        long heap = 0;
        boolean named = false;
        for (final MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() != MemoryType.HEAP || pool.getUsage() == null) {
                continue;
            }
            heap += pool.getUsage().getUsed();
            final String name = pool.getName();
            if (name.contains("Old") || name.contains("Tenured")) {
                old += pool.getUsage().getUsed();
                named = true;
            }
        }
        return named ? old : heap;
    }
}
