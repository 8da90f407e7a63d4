package org.metaroce.mrct.reports.internal;

import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * Replaces a file atomically: the content goes to a temporary file in the same directory, which is then moved over
 * the target with {@code ATOMIC_MOVE}. A reader (or a crash) sees the old file or the new one, never half of one.
 *
 * <p>The temporary file is named {@code .<name>.tmp} so that a leftover from a killed process is visibly ours and
 * overwritten by the next write. It is not fsync'ed on every write: the reports guard against a crash of the JVM,
 * where the page cache survives; {@code durable} forces the bytes to the device (used for the last write of a run).
 *
 * <p>The first write of a file (none exists yet) renders the content in memory before the temporary file is created:
 * rendering is the slow part on a cold JVM (a report's first write loads and compiles its serialiser), and a process
 * killed then (SIGKILL early in a run) would otherwise leave a report directory holding nothing but
 * {@code .report.json.tmp}. So a kill leaves either no file or the whole first version; later writes stream, since the
 * previous version then stays in place whatever happens to the temporary file.
 */
public final class AtomicFile {
    private AtomicFile() {
    }

    /** The content of a file, written to a stream. */
    @FunctionalInterface
    public interface Content {
        void writeTo(OutputStream out) throws IOException;
    }

    /** Writes {@code content} to {@code target} atomically. */
    public static void write(final Path target, final boolean durable, final Content content) throws IOException {
        final Path temp = target.resolveSibling("." + target.getFileName() + ".tmp");
        byte[] rendered = null;
        if (!Files.exists(target)) {
            final ByteArrayOutputStream memory = new ByteArrayOutputStream(1 << 16);
            content.writeTo(memory);
            rendered = memory.toByteArray();
        }
        try {
            try (OutputStream file = Files.newOutputStream(temp, StandardOpenOption.CREATE,
                    StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE);
                 OutputStream out = new BufferedOutputStream(file, 1 << 16)) {
                if (rendered != null) {
                    out.write(rendered);
                } else {
                    content.writeTo(out);
                }
            }
            if (durable) {
                try (var channel = java.nio.channels.FileChannel.open(temp, StandardOpenOption.WRITE)) {
                    channel.force(true);
                }
            }
            Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException | RuntimeException | Error e) {
            // an Error too (the heap running out while rendering): no half-written temporary file stays behind
            try {
                Files.deleteIfExists(temp);
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }
}
