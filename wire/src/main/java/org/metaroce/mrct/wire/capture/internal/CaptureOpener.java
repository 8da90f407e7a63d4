package org.metaroce.mrct.wire.capture.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.function.IntFunction;
import org.metaroce.mrct.wire.capture.CaptureFormatException;
import org.metaroce.mrct.wire.capture.CaptureReader;

/** Opens a capture file and picks its reader from the magic number in its first four bytes. */
public final class CaptureOpener {
    private static final int MAGIC_LENGTH = 4;
    private static final int GZIP_MAGIC = 0x1F8B;
    private static final int MODIFIED_PCAP_MAGIC = 0xA1B2CD34;

    private CaptureOpener() {
    }

    /**
     * Opens {@code path} and reads its file or first section header; the file is closed again when that fails.
     *
     * @param path       the capture file
     * @param bufferSize initial read buffer size in bytes
     * @return a reader positioned before the first record
     * @throws CaptureFormatException when the file is empty, not a pcap or pcapng file, or its header is damaged
     * @throws IOException            when the file cannot be opened or read
     */
    public static CaptureReader open(final Path path, final int bufferSize) throws IOException {
        return open(path, bufferSize, null);
    }

    /**
     * Opens {@code path} as {@link #open(Path, int)} does; with {@code fresh}, every refill of the read buffer reads
     * into a fresh buffer from it ({@link ReadWindow#ReadWindow(FileChannel, int, IntFunction)}).
     *
     * @param fresh where fresh read buffers come from, or null for one reused buffer
     */
    public static CaptureReader open(final Path path, final int bufferSize, final IntFunction<ByteBuffer> fresh)
            throws IOException {
        final FileChannel channel = FileChannel.open(path, StandardOpenOption.READ);
        try {
            return reader(path, channel, fresh == null ? new ReadWindow(channel, bufferSize)
                    : new ReadWindow(channel, bufferSize, fresh));
        } catch (IOException | RuntimeException e) {
            try {
                channel.close();
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    private static CaptureReader reader(final Path path, final FileChannel channel, final ReadWindow window)
            throws IOException {
        if (!window.request(MAGIC_LENGTH)) {
            throw new CaptureFormatException(path, 0, 1, window.remaining() == 0
                    ? "empty file: not a pcap or pcapng file"
                    : "not a pcap or pcapng file: only " + window.remaining() + " bytes long");
        }
        final int magic = Endian.i32(window.buffer(), window.cursor(), true);
        if (magic == PcapLayout.MAGIC_MICROSECONDS || magic == PcapLayout.MAGIC_NANOSECONDS) {
            return new PcapFileReader(path, channel, window, true, magic == PcapLayout.MAGIC_NANOSECONDS);
        }
        if (magic == Integer.reverseBytes(PcapLayout.MAGIC_MICROSECONDS)
                || magic == Integer.reverseBytes(PcapLayout.MAGIC_NANOSECONDS)) {
            return new PcapFileReader(path, channel, window, false,
                    magic == Integer.reverseBytes(PcapLayout.MAGIC_NANOSECONDS));
        }
        if (magic == PcapngLayout.SECTION_HEADER_BLOCK) {
            return new PcapngFileReader(path, channel, window);
        }
        throw new CaptureFormatException(path, 0, 1, String.format("not a pcap or pcapng file: magic 0x%08X", magic)
                + hint(magic));
    }

    /** What a few well-known foreign magic numbers are, for the error message. */
    private static String hint(final int magic) {
        if (magic >>> 16 == GZIP_MAGIC) {
            return " (gzip-compressed: decompress it first)";
        }
        if (magic == MODIFIED_PCAP_MAGIC || magic == Integer.reverseBytes(MODIFIED_PCAP_MAGIC)) {
            return " (the unsupported \"modified\" pcap variant: convert it with editcap -F pcap)";
        }
        return "";
    }
}
