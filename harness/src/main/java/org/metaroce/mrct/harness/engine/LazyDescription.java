package org.metaroce.mrct.harness.engine;

import java.nio.ByteBuffer;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.metaroce.mrct.wire.DecodeStatus;
import org.metaroce.mrct.wire.DecodedFrame;
import org.metaroce.mrct.wire.FrameDecoder;
import org.metaroce.mrct.wire.FrameDescription;

/**
 * A frame's decoded description ({@code roce}, then every header as {@link FrameDescription} gives it), made when the
 * map is first read: most evidence records are only written to evidence.pcapng (bytes, step and note), and describing
 * every header of every frame of every case cost the engine a fifth of its CPU on a 256-frame burst
 * (docs/real-devices.md, "The engine's CPU per frame"). A pure function of the bytes, so the map read later is the map
 * made at once; ordered as made (a {@link LinkedHashMap}, which the reports keep in order). Every access that reads or
 * changes the map describes the frame first, once, under the map's lock.
 */
final class LazyDescription extends LinkedHashMap<String, Object> {
    private static final long serialVersionUID = 1L;

    private final transient byte[] bytes;
    private boolean made;

    LazyDescription(final byte[] bytes) {
        this.bytes = bytes;
    }

    private synchronized void make() {
        if (made) {
            return;
        }
        made = true; // before filling: filling goes through put, which comes back here
        final DecodedFrame frame = new FrameDecoder().decode(ByteBuffer.wrap(bytes), 0, bytes.length);
        super.put("roce", frame.status() != DecodeStatus.NOT_ROCE);
        if (frame.status() != DecodeStatus.NOT_ROCE) {
            FrameDescription.describeHeaders(frame, this);
        }
    }

    @Override
    public int size() {
        make();
        return super.size();
    }

    @Override
    public boolean isEmpty() {
        make();
        return super.isEmpty();
    }

    @Override
    public Object get(final Object key) {
        make();
        return super.get(key);
    }

    @Override
    public Object getOrDefault(final Object key, final Object defaultValue) {
        make();
        return super.getOrDefault(key, defaultValue);
    }

    @Override
    public boolean containsKey(final Object key) {
        make();
        return super.containsKey(key);
    }

    @Override
    public boolean containsValue(final Object value) {
        make();
        return super.containsValue(value);
    }

    @Override
    public Set<String> keySet() {
        make();
        return super.keySet();
    }

    @Override
    public Collection<Object> values() {
        make();
        return super.values();
    }

    @Override
    public Set<Map.Entry<String, Object>> entrySet() {
        make();
        return super.entrySet();
    }

    @Override
    public void forEach(final BiConsumer<? super String, ? super Object> action) {
        make();
        super.forEach(action);
    }

    @Override
    public Object put(final String key, final Object value) {
        make();
        return super.put(key, value);
    }

    @Override
    public void putAll(final Map<? extends String, ?> m) {
        make();
        super.putAll(m);
    }

    @Override
    public Object putIfAbsent(final String key, final Object value) {
        make();
        return super.putIfAbsent(key, value);
    }

    @Override
    public Object remove(final Object key) {
        make();
        return super.remove(key);
    }

    @Override
    public boolean remove(final Object key, final Object value) {
        make();
        return super.remove(key, value);
    }

    @Override
    public Object replace(final String key, final Object value) {
        make();
        return super.replace(key, value);
    }

    @Override
    public boolean replace(final String key, final Object oldValue, final Object newValue) {
        make();
        return super.replace(key, oldValue, newValue);
    }

    @Override
    public void replaceAll(final BiFunction<? super String, ? super Object, ?> function) {
        make();
        super.replaceAll(function);
    }

    @Override
    public Object computeIfAbsent(final String key, final Function<? super String, ?> function) {
        make();
        return super.computeIfAbsent(key, function);
    }

    @Override
    public Object computeIfPresent(final String key,
                                   final BiFunction<? super String, ? super Object, ?> function) {
        make();
        return super.computeIfPresent(key, function);
    }

    @Override
    public Object compute(final String key, final BiFunction<? super String, ? super Object, ?> function) {
        make();
        return super.compute(key, function);
    }

    @Override
    public Object merge(final String key, final Object value,
                        final BiFunction<? super Object, ? super Object, ?> function) {
        make();
        return super.merge(key, value, function);
    }

    @Override
    public void clear() {
        make();
        super.clear();
    }

    @Override
    public Object clone() {
        make();
        return new LinkedHashMap<>(this);
    }

    @Override
    public boolean equals(final Object other) {
        make();
        return super.equals(other);
    }

    @Override
    public int hashCode() {
        make();
        return super.hashCode();
    }

    @Override
    public String toString() {
        make();
        return super.toString();
    }
}
