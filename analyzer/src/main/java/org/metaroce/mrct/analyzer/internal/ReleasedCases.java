package org.metaroce.mrct.analyzer.internal;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.StreamWriteFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.List;
import org.metaroce.mrct.harness.result.CaseResult;

/**
 * The cases of the connections released before the capture's end ({@link Releases}), kept on disk until the report's
 * turn: each connection's cases are built when it is released, with a placeholder for its ID (the ID is its rank by
 * first frame, which connections paired later can still change), written as one JSON line to a temporary file, and
 * read back in order of first frame with the ID filled in. In memory, per released connection: 24 bytes of index.
 * Each line is deflated (fastest level): a one-frame connection's 21 cases are about 16 KB of JSON, which would make
 * the spill of 10^6 connections 16 GB; deflated, 2.9 GB (docs/analyze-at-scale.md). Thread-safe: the shards of one
 * capture release into one spill.
 */
final class ReleasedCases implements AutoCloseable {
    private static final ObjectMapper MAPPER = JsonMapper.builder(JsonFactory.builder()
            // the names of a case's series and parameters are map keys, and the series' names hold the connection's
            // addresses: interned, every released connection added names to the parser's symbol table, and looking
            // names up in it took half of reading the connections back (JFR, 20,000 connections)
            .disable(JsonFactory.Feature.CANONICALIZE_FIELD_NAMES).build())
        .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
        // the rate series' doubles: written and read back exactly, faster than the JDK's (as JsonText's)
        .enable(StreamWriteFeature.USE_FAST_DOUBLE_WRITER).enable(StreamReadFeature.USE_FAST_DOUBLE_PARSER).build();
    private static final String TOKEN = "@@mrct-released-";

    /** One connection's cases and the lines of its failing cases, as spilled. */
    record Entry(List<CaseResult> cases, List<String> violations) {
    }

    private final java.util.zip.Deflater deflater = new java.util.zip.Deflater(java.util.zip.Deflater.BEST_SPEED,
        true);
    private final java.util.zip.Inflater inflater = new java.util.zip.Inflater(true);
    private byte[] packed = new byte[1 << 16];
    private Path file;
    private FileChannel channel;
    private long size;
    private int count;
    private long[] firstFrames = new long[16];
    private long[] offsets = new long[16];
    private int[] lengths = new int[16];
    private int[] caseCounts = new int[16];
    private boolean sorted = true;
    private long early;
    private long resumed;

    /** The placeholder of the ID of the connection whose first frame is {@code firstFrame}. */
    static String placeholder(final long firstFrame) {
        return TOKEN + firstFrame + "@@";
    }

    /** Spills one released connection's cases (built with {@link #placeholder} as its ID). */
    synchronized void add(final long firstFrame, final Entry entry, final boolean beforeWindow) {
        if (beforeWindow) {
            early++;
        }
        final byte[] bytes;
        try {
            bytes = deflate(MAPPER.writeValueAsBytes(entry));
            if (channel == null) {
                file = Files.createTempFile("mrct-released-", ".jsonl");
                file.toFile().deleteOnExit();
                channel = FileChannel.open(file, StandardOpenOption.WRITE, StandardOpenOption.READ);
            }
            final ByteBuffer buffer = ByteBuffer.wrap(bytes);
            while (buffer.hasRemaining()) {
                channel.write(buffer, size + buffer.position());
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot spill the cases of a released connection: " + e.getMessage(), e);
        }
        if (count == firstFrames.length) {
            final int capacity = count * 2;
            firstFrames = Arrays.copyOf(firstFrames, capacity);
            offsets = Arrays.copyOf(offsets, capacity);
            lengths = Arrays.copyOf(lengths, capacity);
            caseCounts = Arrays.copyOf(caseCounts, capacity);
        }
        sorted &= count == 0 || firstFrames[count - 1] < firstFrame;
        firstFrames[count] = firstFrame;
        offsets[count] = size;
        lengths[count] = bytes.length;
        caseCounts[count] = entry.cases().size();
        count++;
        size += bytes.length;
    }

    /** A flow resumed the QP of a released connection. */
    synchronized void resumed() {
        resumed++;
    }

    /** The connections released before their window ran out (the cap). */
    synchronized long early() {
        return early;
    }

    /** The flows that resumed a released connection's QP. */
    synchronized long resumedFlows() {
        return resumed;
    }

    /** The connections spilled. */
    synchronized int size() {
        return count;
    }

    /** Orders the spilled connections by first frame (after every release). */
    synchronized void sort() {
        if (sorted) {
            return;
        }
        final Integer[] order = new Integer[count];
        for (int i = 0; i < count; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (x, y) -> Long.compare(firstFrames[x], firstFrames[y]));
        final long[] f = new long[count];
        final long[] o = new long[count];
        final int[] l = new int[count];
        final int[] c = new int[count];
        for (int i = 0; i < count; i++) {
            f[i] = firstFrames[order[i]];
            o[i] = offsets[order[i]];
            l[i] = lengths[order[i]];
            c[i] = caseCounts[order[i]];
        }
        firstFrames = f;
        offsets = o;
        lengths = l;
        caseCounts = c;
        sorted = true;
    }

    /** The first frame of the {@code i}th spilled connection in order of first frame. */
    long firstFrame(final int i) {
        return firstFrames[i];
    }

    /** The number of its cases. */
    int caseCount(final int i) {
        return caseCounts[i];
    }

    /** Reads the {@code i}th connection's cases back, with {@code id} in place of the placeholder. */
    synchronized Entry read(final int i, final String id) {
        final ByteBuffer buffer = ByteBuffer.allocate(lengths[i]);
        try {
            while (buffer.hasRemaining()) {
                if (channel.read(buffer, offsets[i] + buffer.position()) < 0) {
                    throw new IOException("the spill file " + file + " ends before byte " + (offsets[i] + lengths[i]));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read back the cases of a released connection: " + e.getMessage(),
                e);
        }
        final String json = new String(inflate(buffer.array()), StandardCharsets.UTF_8)
            .replace(placeholder(firstFrames[i]), id);
        try {
            // parsed from UTF-8 bytes: Jackson's byte parser is the faster of its two
            return MAPPER.readValue(json.getBytes(StandardCharsets.UTF_8), Entry.class);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot decode the cases of a released connection: "
                + e.getOriginalMessage(), e);
        } catch (IOException e) {
            // from an array in memory: not expected
            throw new UncheckedIOException("cannot read the cases of a released connection: " + e.getMessage(), e);
        }
    }

    private byte[] deflate(final byte[] json) {
        deflater.reset();
        deflater.setInput(json);
        deflater.finish();
        int n = 0;
        while (!deflater.finished()) {
            if (n == packed.length) {
                packed = Arrays.copyOf(packed, packed.length * 2);
            }
            n += deflater.deflate(packed, n, packed.length - n);
        }
        return Arrays.copyOf(packed, n);
    }

    private byte[] inflate(final byte[] deflated) {
        inflater.reset();
        inflater.setInput(deflated);
        final java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream(deflated.length * 8);
        final byte[] chunk = new byte[1 << 15];
        try {
            while (!inflater.finished()) {
                final int n = inflater.inflate(chunk);
                if (n == 0 && (inflater.needsInput() || inflater.needsDictionary())) {
                    throw new IllegalStateException("a released connection's spilled cases end early");
                }
                out.write(chunk, 0, n);
            }
        } catch (java.util.zip.DataFormatException e) {
            throw new IllegalStateException("a released connection's spilled cases are damaged: " + e.getMessage(),
                e);
        }
        return out.toByteArray();
    }

    /** Forgets everything spilled (the analysis starts again from the capture's start). */
    synchronized void clear() {
        close();
        size = 0;
        count = 0;
        early = 0;
        resumed = 0;
        sorted = true;
    }

    @Override
    public synchronized void close() {
        if (channel != null) {
            try {
                channel.close();
                Files.deleteIfExists(file);
            } catch (IOException e) {
                // a temporary file: deleted on exit anyway
            }
            channel = null;
        }
    }
}
