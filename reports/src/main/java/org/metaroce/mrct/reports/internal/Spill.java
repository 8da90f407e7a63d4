package org.metaroce.mrct.reports.internal;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * An append-only hidden file beside a report ({@code .<name>.spill}) holding the report's rendered case entries, each
 * serialised once when its case finished: the writer keeps a count and a length, not the entries, and every rewrite of
 * the report streams them from here. The file is truncated when a run starts and deleted after the run's last write
 * ({@link #settled}): the entries are then read from the report itself, where that write put them, should the report
 * be written again.
 *
 * <p>While a run writes it, the file is locked (an advisory lock on the whole file, which the system drops when the
 * process ends, however it ends) and an exit hook deletes it when the JVM exits (SIGTERM, Ctrl-C, {@code System.exit},
 * out of heap), even while a run is still writing (it goes on through the open file): a stopped run leaves no spill
 * file. Only a process killed outright (SIGKILL, a crash of the JVM) does; the next run
 * into the same directory removes it ({@link #sweep}: every spill file there that no live process holds locked).
 *
 * <p>{@link #append} cannot throw (a writer's {@code caseAdded} does not): a failure to append is kept and thrown by
 * the next {@link #copyTo}, so that it surfaces as a failure to write that report.
 */
public final class Spill {
    /** The spill files this JVM holds open: {@link #sweep} leaves them (a lock is per process, not per channel). */
    private static final Set<Path> HELD = ConcurrentHashMap.newKeySet();
    /** Guards {@link #exiting} against a file being created while the exit hook deletes the others. */
    private static final Object EXIT = new Object();
    /** True once the JVM has begun to exit: a spill file created from then on is unlinked at once. */
    private static boolean exiting;

    static {
        try {
            Runtime.getRuntime().addShutdownHook(new Thread(Spill::exit, "mrct-spill-files"));
        } catch (IllegalStateException e) {
            exiting = true; // first used while the JVM exits
        }
    }

    private final Path file;
    private FileChannel channel;
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

    /**
     * Appends one entry: {@code prefix} (may be empty) then {@code entry}, through a 64 KiB buffer that reaches the file
     * when it fills, at each {@link #copyTo} and at {@link #flush}. Until 2026-12-04 every entry was flushed on its own
     * (one write call per case and report, 1.28 million for the 420,000 cases of a 20,000-connection capture) so that
     * "a crash of the JVM loses no finished case"; but nothing reads a crashed run's spill file (the next run's
     * {@link #sweep} deletes it): the reports a crash leaves are the ones last rewritten, whose entries a rewrite puts
     * in the file first. Analysing 100,000 one-frame connections (2.1 million cases) took 85 s with the flushes and 72 s
     * without (docs/analyze-at-scale.md).
     */
    public void append(final byte[] prefix, final byte[] entry) {
        entries++;
        if (failure != null) {
            return;
        }
        try {
            if (out == null) {
                open();
            }
            out.write(prefix);
            out.write(entry);
            bytes += prefix.length + entry.length;
        } catch (IOException e) {
            failure = e;
        }
    }

    /**
     * Puts every entry appended so far into the file ({@link #copyTo} does it before it reads them).
     *
     * @throws IOException an earlier append failed
     */
    public void flush() throws IOException {
        if (failure != null) {
            throw new IOException("cannot append to " + file + ": " + failure.getMessage(), failure);
        }
        if (out != null) {
            out.flush();
        }
    }

    /** Writes every entry appended so far, in order, to {@code target}. */
    public void copyTo(final OutputStream target) throws IOException {
        flush();
        if (deleted && source == null && entries > 0) {
            throw new IllegalStateException(file + " was deleted after the run's last write");
        }
        copiedAt = target instanceof Positioned positioned ? positioned.position() : -1;
        if (source == null && out == null) {
            return;
        }
        final byte[] buffer = new byte[1 << 16];
        long left = bytes;
        if (source == null) {
            // through the channel that holds the lock: closing another descriptor of the file would drop the lock
            final ByteBuffer view = ByteBuffer.wrap(buffer);
            long position = 0;
            while (left > 0) {
                view.clear().limit((int) Math.min(buffer.length, left));
                final int n = channel.read(view, position);
                if (n < 0) {
                    throw new IOException(file + " ended " + left + " bytes early");
                }
                target.write(buffer, 0, n);
                position += n;
                left -= n;
            }
            return;
        }
        try (InputStream in = Files.newInputStream(source)) {
            in.skipNBytes(start);
            while (left > 0) {
                final int n = in.read(buffer, 0, (int) Math.min(buffer.length, left));
                if (n < 0) {
                    throw new IOException(source + " ended " + left + " bytes early");
                }
                target.write(buffer, 0, n);
                left -= n;
            }
        }
    }

    /** Creates (or truncates) the file, locks it and registers it for deletion at exit. */
    private void open() throws IOException {
        final FileChannel opened = FileChannel.open(file, StandardOpenOption.CREATE,
            StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.READ, StandardOpenOption.WRITE);
        try {
            // null: another live process holds it (two runs into one directory at once); written anyway, as before
            opened.tryLock();
        } catch (IOException | OverlappingFileLockException e) {
            // the lock only guards against a sweep; the file is written all the same
        }
        synchronized (EXIT) {
            if (exiting) {
                // the exit hook has run: the file lives on as this open channel only (read and written through it)
                Files.deleteIfExists(file);
            } else {
                HELD.add(key(file));
            }
        }
        channel = opened;
        out = new BufferedOutputStream(Channels.newOutputStream(opened), 1 << 16);
    }

    /**
     * The JVM exits (SIGTERM, Ctrl-C, {@code System.exit}, out of heap): every spill file is unlinked; a run still
     * finishing (the cli's interrupt hook lets it end its case and write its reports) reads and writes them through
     * their open channels, and any it creates from now on is unlinked at once.
     */
    private static void exit() {
        synchronized (EXIT) {
            exiting = true;
            for (final Path held : HELD) {
                try {
                    Files.deleteIfExists(held);
                } catch (IOException e) {
                    // left: the next run's sweep removes it
                }
            }
        }
    }

    private static Path key(final Path path) {
        return path.toAbsolutePath().normalize();
    }

    /**
     * Removes the spill files a killed run left in {@code dir}: every hidden {@code .<name>.spill} there (the writers'
     * {@code .<report>[.N][.warn].spill}) that neither this JVM nor another live process holds (locked). Returns the
     * files removed; a file that cannot be examined or removed is left (it is hidden, and harmless).
     */
    public static java.util.List<Path> sweep(final Path dir) {
        final java.util.List<Path> removed = new java.util.ArrayList<>();
        if (!Files.isDirectory(dir)) {
            return removed;
        }
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir, ".*.spill")) {
            for (final Path candidate : files) {
                if (HELD.contains(key(candidate)) || !Files.isRegularFile(candidate)) {
                    continue;
                }
                try (FileChannel probe = FileChannel.open(candidate, StandardOpenOption.WRITE)) {
                    final FileLock lock = probe.tryLock();
                    if (lock != null) {
                        Files.deleteIfExists(candidate);
                        removed.add(candidate);
                        lock.release();
                    }
                } catch (IOException | OverlappingFileLockException e) {
                    // held, or gone meanwhile: left
                }
            }
        } catch (IOException e) {
            // an unreadable directory: nothing swept; the writers report on it when they write there
        }
        return removed;
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
            Files.deleteIfExists(file);
        } catch (IOException e) {
            // a hidden leftover, removed by the next run's sweep
        }
        try {
            if (out != null) {
                out.close(); // closes the channel, which releases the lock
            }
        } catch (IOException e) {
            // the file is gone anyway
        } finally {
            out = null;
            channel = null;
            HELD.remove(key(file));
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
