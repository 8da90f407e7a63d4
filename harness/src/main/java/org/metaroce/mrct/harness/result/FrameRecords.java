package org.metaroce.mrct.harness.result;

import java.util.AbstractList;
import java.util.Objects;
import java.util.RandomAccess;
import java.util.function.IntFunction;

/**
 * An unmodifiable list of a case's evidence frames whose records are made when first read, each once, from a snapshot
 * taken when the list was made (so {@code CaseResult} keeps it as it is instead of copying every record at once). The
 * harness's records describe their frame ({@link FrameRecord#decoded}) only when that map is first read: most are
 * never read (the documents carry the frames around a failure, evidence.pcapng the bytes), and describing every header
 * of every frame of every case cost the engine a fifth of its CPU on a 256-frame burst (docs/real-devices.md, "The
 * engine's CPU per frame"). Safe to read from any thread.
 */
public final class FrameRecords extends AbstractList<FrameRecord> implements RandomAccess {
    private final FrameRecord[] made;
    private final IntFunction<FrameRecord> maker;

    /**
     * @param size how many frames
     * @param maker the record of frame {@code i}: called at most once per index, never with a lock of the caller's
     *     other than this list's held
     */
    public FrameRecords(final int size, final IntFunction<FrameRecord> maker) {
        this.made = new FrameRecord[size];
        this.maker = Objects.requireNonNull(maker);
    }

    @Override
    public synchronized FrameRecord get(final int index) {
        Objects.checkIndex(index, made.length);
        FrameRecord record = made[index];
        if (record == null) {
            record = Objects.requireNonNull(maker.apply(index), "no record for frame " + index);
            made[index] = record;
        }
        return record;
    }

    @Override
    public int size() {
        return made.length;
    }
}
