package org.metaroce.mrct.reports.internal;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * An append-only hidden file beside a report ({@code .<name>.spill}) holding the report's rendered case entries, each
 * serialised once when its case finished: the writer keeps a count and a length, not the entries, and every rewrite of
 * the report streams them from here. The file is truncated when a run starts and deleted after the run's last write
 * ({@link #settled}): the entries are then read from the report itself, where that write put them, should the report
 * be written again. One left by a killed process is overwritten by the next run into the same directory.
 *
 * <p>{@link #append} cannot throw (a writer's {@code caseAdded} does not): a failure to append is kept and thrown by
 * the next {@link #copyTo}, so that it surfaces as a failure to write that report.
 */
public final class Spill {
    private final Path file;
    private OutputStream out;
    private long bytes;
    private int entries;
    private IOException failure;
    private boolean deleted;
    /** Where the last {@link #copyTo} put the entries in its target, when that was {@link Positioned}, else -1. */
    private long copiedAt = -1;
    /** After {@link #settled}: the report holding the entries at {@link #start}. */
    private Path source;
    private long start;

    public Spill(final Path file) {
        this.file = file;
    }

    /** The spill file of {@code report}: {@code .<name><suffix>.spill} in the same directory. */
    public static Spill beside(final Path report, final String suffix) {
        return new Spill(report.resolveSibling("." + report.getFileName() + suffix + ".spill"));
    }

    /** The spill file. */
    public Path file() {
        return file;
    }

    /** Entries appended since the run started. */
    public int entries() {
        return entries;
    }

    /** Bytes appended since the run started. */
    public long bytes() {
        return bytes;
    }

    /** A run starts: forget the entries of any earlier one (the file is truncated when the first entry comes). */
    public void reset() {
        delete();
        bytes = 0;
        entries = 0;
        failure = null;
        deleted = false;
        source = null;
        copiedAt = -1;
    }

    /** Appends one entry: {@code prefix} (may be empty) then {@code entry}. */
    public void append(final byte[] prefix, final byte[] entry) {
        entries++;
        if (failure != null) {
            return;
        }
        try {
            if (out == null) {
                out = new BufferedOutputStream(Files.newOutputStream(file, StandardOpenOption.CREATE,
                    StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE), 1 << 16);
            }
            out.write(prefix);
            out.write(entry);
            // to the page cache at once: a crash of the JVM loses no finished case
            out.flush();
            bytes += prefix.length + entry.length;
        } catch (IOException e) {
            failure = e;
        }
    }

    /** Writes every entry appended so far, in order, to {@code target}. */
    public void copyTo(final OutputStream target) throws IOException {
        if (failure != null) {
            throw new IOException("cannot append to " + file + ": " + failure.getMessage(), failure);
        }
        if (deleted && source == null && entries > 0) {
            throw new IllegalStateException(file + " was deleted after the run's last write");
        }
        copiedAt = target instanceof Positioned positioned ? positioned.position() : -1;
        if (source == null && out == null) {
            return;
        }
        if (out != null) {
            out.flush();
        }
        final byte[] buffer = new byte[1 << 16];
        long left = bytes;
        try (InputStream in = Files.newInputStream(source != null ? source : file)) {
            in.skipNBytes(source != null ? start : 0);
            while (left > 0) {
                final int n = in.read(buffer, 0, (int) Math.min(buffer.length, left));
                if (n < 0) {
                    throw new IOException(file + " ended " + left + " bytes early");
                }
                target.write(buffer, 0, n);
                left -= n;
            }
        }
    }

    /**
     * The run's last write put the entries into {@code report} (at the position the last {@link #copyTo} found in its
     * {@link Positioned} target): the spill file is deleted, and a later copy reads the entries from there.
     */
    public void settled(final Path report) {
        if (copiedAt >= 0) {
            source = report;
            start = copiedAt;
        }
        delete();
    }

    /** Closes and deletes the file; the counts stay. */
    public void delete() {
        deleted = true;
        try {
            if (out != null) {
                out.close();
            }
        } catch (IOException e) {
            // the file goes anyway
        } finally {
            out = null;
        }
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            // a hidden leftover, overwritten by the next run
        }
    }

    /** An output stream that counts the bytes written through it (so that {@link #copyTo} knows where it copies). */
    public static final class Positioned extends java.io.FilterOutputStream {
        private long position;

        public Positioned(final OutputStream out) {
            super(out);
        }

        /** Bytes written so far. */
        public long position() {
            return position;
        }

        @Override
        public void write(final int b) throws IOException {
            out.write(b);
            position++;
        }

        @Override
        public void write(final byte[] b, final int off, final int len) throws IOException {
            out.write(b, off, len);
            position += len;
        }
    }
}
