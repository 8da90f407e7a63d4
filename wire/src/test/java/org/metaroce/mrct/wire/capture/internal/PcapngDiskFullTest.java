package org.metaroce.mrct.wire.capture.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metaroce.mrct.wire.capture.CaptureReader;
import org.metaroce.mrct.wire.capture.PcapngWriter;

/**
 * A full disk while the evidence is written (issue 11 item 8): the pcapng writer promises a file that ends at a block
 * boundary, so a write the device cuts short (ENOSPC after part of the buffer went out) must not leave half a block.
 * The disk is a {@link FileChannel} over a real file that accepts a quota of bytes and then fails as Linux does: the
 * write that crosses the quota writes what fits and reports it, the next one throws.
 */
class PcapngDiskFullTest {
    private static final int FRAME = 1000;

    @Test
    void aWriteCutShortByAFullDiskLeavesTheFileAtABlockBoundary(@TempDir final Path dir) throws Exception {
        final Path path = dir.resolve("evidence.pcapng");
        final FullDisk disk = new FullDisk(FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
            StandardOpenOption.READ), Long.MAX_VALUE);
        final PcapngWriter writer = PcapngFileWriter.create(disk, PcapngWriter.Options.defaults());
        writer.addInterface(CaptureReader.LINKTYPE_ETHERNET, "to-dut", 9);
        final byte[] frame = new byte[FRAME];
        for (int i = 0; i < 10; i++) {
            writer.write(0, 1_000L * i, ByteBuffer.wrap(frame), 0, FRAME, "case=A i=" + i);
        }
        writer.flush();
        final long whole = Files.size(path);
        disk.quota = whole + 2 * FRAME + 500; // room for two and a half more packets

        for (int i = 0; i < 10; i++) {
            writer.write(0, 1_000_000L + i, ByteBuffer.wrap(frame), 0, FRAME, "case=B i=" + i);
        }
        assertThatThrownBy(writer::flush).isInstanceOf(IOException.class).hasMessageContaining("No space left");

        assertThat(Files.size(path)).as("cut back to the end of the last whole flush").isEqualTo(whole);
        assertThat(packets(path)).isEqualTo(10);

        disk.quota = Long.MAX_VALUE; // space freed: later blocks follow whole ones
        writer.write(0, 2_000_000L, ByteBuffer.wrap(frame), 0, FRAME, "case=C");
        writer.close();
        assertThat(packets(path)).isEqualTo(11);
    }

    @Test
    void aDiskFullAtCloseAlsoLeavesAValidFile(@TempDir final Path dir) throws Exception {
        final Path path = dir.resolve("evidence.pcapng");
        final FullDisk disk = new FullDisk(FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
            StandardOpenOption.READ), Long.MAX_VALUE);
        final PcapngWriter writer = PcapngFileWriter.create(disk, PcapngWriter.Options.defaults());
        writer.addInterface(CaptureReader.LINKTYPE_ETHERNET, "to-dut", 9);
        writer.flush();
        final long whole = Files.size(path);
        disk.quota = whole + 3 * FRAME;
        for (int i = 0; i < 5; i++) {
            writer.write(0, i, new byte[FRAME]);
        }

        assertThatThrownBy(writer::close).isInstanceOf(IOException.class);

        assertThat(Files.size(path)).isEqualTo(whole);
        assertThat(packets(path)).isZero();
    }

    /** Reads every packet; a file cut inside a block would throw. */
    private static int packets(final Path path) throws IOException {
        int n = 0;
        try (CaptureReader reader = CaptureReader.open(path)) {
            while (reader.next()) {
                n++;
            }
        }
        return n;
    }

    /** A file channel over a disk that holds {@code quota} bytes of file. */
    private static final class FullDisk extends FileChannel {
        private final FileChannel file;
        private long quota;

        FullDisk(final FileChannel file, final long quota) {
            this.file = file;
            this.quota = quota;
        }

        @Override
        public int write(final ByteBuffer src) throws IOException {
            final long room = quota - file.position();
            if (room <= 0) {
                throw new IOException("No space left on device");
            }
            if (src.remaining() <= room) {
                return file.write(src);
            }
            final ByteBuffer part = src.duplicate();
            part.limit(part.position() + (int) room);
            final int written = file.write(part);
            src.position(src.position() + written);
            return written;
        }

        @Override
        public int read(final ByteBuffer dst) throws IOException {
            return file.read(dst);
        }

        @Override
        public long read(final ByteBuffer[] dsts, final int offset, final int length) throws IOException {
            return file.read(dsts, offset, length);
        }

        @Override
        public long write(final ByteBuffer[] srcs, final int offset, final int length) throws IOException {
            throw new UnsupportedOperationException("not used by the writer");
        }

        @Override
        public long position() throws IOException {
            return file.position();
        }

        @Override
        public FileChannel position(final long newPosition) throws IOException {
            file.position(newPosition);
            return this;
        }

        @Override
        public long size() throws IOException {
            return file.size();
        }

        @Override
        public FileChannel truncate(final long size) throws IOException {
            file.truncate(size);
            return this;
        }

        @Override
        public void force(final boolean metaData) throws IOException {
            file.force(metaData);
        }

        @Override
        public long transferTo(final long position, final long count, final WritableByteChannel target)
            throws IOException {
            return file.transferTo(position, count, target);
        }

        @Override
        public long transferFrom(final ReadableByteChannel src, final long position, final long count)
            throws IOException {
            throw new UnsupportedOperationException("not used by the writer");
        }

        @Override
        public int read(final ByteBuffer dst, final long position) throws IOException {
            return file.read(dst, position);
        }

        @Override
        public int write(final ByteBuffer src, final long position) throws IOException {
            throw new UnsupportedOperationException("not used by the writer");
        }

        @Override
        public MappedByteBuffer map(final MapMode mode, final long position, final long size) throws IOException {
            return file.map(mode, position, size);
        }

        @Override
        public FileLock lock(final long position, final long size, final boolean shared) throws IOException {
            return file.lock(position, size, shared);
        }

        @Override
        public FileLock tryLock(final long position, final long size, final boolean shared) throws IOException {
            return file.tryLock(position, size, shared);
        }

        @Override
        protected void implCloseChannel() throws IOException {
            file.close();
        }
    }
}
