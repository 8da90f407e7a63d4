package org.metaroce.mrct.analyzer;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.metaroce.mrct.wire.BigEndian;
import org.metaroce.mrct.wire.Checksums;
import org.metaroce.mrct.wire.DecodedFrame;
import org.metaroce.mrct.wire.FrameDecoder;
import org.metaroce.mrct.wire.HeaderKind;
import org.metaroce.mrct.wire.LittleEndian;
import org.metaroce.mrct.wire.capture.CaptureFormat;
import org.metaroce.mrct.wire.capture.CaptureReader;
import org.metaroce.mrct.wire.capture.PcapWriter;

/** Reads small captures into memory and writes edited copies of them, for tests that inject faults. */
final class Captures {
    /** One record: its timestamp and bytes. */
    record Record(long tsNs, byte[] bytes) {
        Record withBytes(final byte[] other) {
            return new Record(tsNs, other);
        }

        Record at(final long ts) {
            return new Record(ts, bytes);
        }
    }

    private Captures() {
    }

    static List<Record> read(final Path file) throws IOException {
        final List<Record> records = new ArrayList<>();
        try (CaptureReader reader = CaptureReader.open(file)) {
            while (reader.next()) {
                final byte[] bytes = new byte[reader.capturedLength()];
                reader.buffer().get(reader.offset(), bytes);
                records.add(new Record(reader.timestampNanos(), bytes));
            }
        }
        return records;
    }

    /** Writes a nanosecond pcap of Ethernet frames. */
    static Path write(final Path file, final List<Record> records) throws IOException {
        return write(file, records, PcapWriter.Options.defaults().withFormat(CaptureFormat.PCAP_NANO));
    }

    static Path write(final Path file, final List<Record> records, final PcapWriter.Options options)
            throws IOException {
        try (PcapWriter writer = PcapWriter.create(file, options)) {
            for (final Record record : records) {
                writer.write(record.tsNs(), ByteBuffer.wrap(record.bytes()), 0, record.bytes().length);
            }
        }
        return file;
    }

    /** The 1-based numbers of the records whose UDP destination port is 4791 (RoCEv2 over IPv4). */
    static List<Integer> roce(final List<Record> records) {
        final List<Integer> numbers = new ArrayList<>();
        for (int i = 0; i < records.size(); i++) {
            final byte[] b = records.get(i).bytes();
            if (b.length > 42 && (b[12] & 0xFF) == 0x08 && b[13] == 0 && b[23] == 17
                && ((b[36] & 0xFF) << 8 | b[37] & 0xFF) == 4791) {
                numbers.add(i + 1);
            }
        }
        return numbers;
    }

    /** The BTH opcode of a RoCEv2/IPv4 frame without options. */
    static int opcode(final byte[] frame) {
        return frame[42] & 0xFF;
    }

    /**
     * A copy of a RoCEv2/IPv4 frame with another IPv4 identification, its IPv4 header checksum and ICRC made right
     * again (what a retransmission that is not a byte-for-byte copy looks like).
     */
    static byte[] withIpId(final byte[] frame, final int id) {
        final byte[] copy = frame.clone();
        final ByteBuffer buffer = ByteBuffer.wrap(copy);
        BigEndian.u16(buffer, 18, id);
        BigEndian.u16(buffer, 24, 0);
        BigEndian.u16(buffer, 24, Checksums.ipv4Header(buffer, 14));
        final DecodedFrame decoded = new FrameDecoder()
            .decode(buffer, 0, copy.length);
        LittleEndian.i32(buffer, decoded.offset(HeaderKind.ICRC),
            decoded.computeIcrc());
        return copy;
    }

    /** A copy of a RoCEv2/IPv4 ACKNOWLEDGE made a NAK 0x60 for {@code psn} (bth.psn, aeth.syndrome, the ICRC). */
    static byte[] asNak60(final byte[] ack, final int psn) {
        final byte[] copy = ack.clone();
        final ByteBuffer buffer = ByteBuffer.wrap(copy);
        copy[51] = (byte) (psn >>> 16);
        copy[52] = (byte) (psn >>> 8);
        copy[53] = (byte) psn;
        final DecodedFrame decoded = new FrameDecoder().decode(buffer, 0, copy.length);
        copy[decoded.offset(HeaderKind.AETH)] = 0x60;
        LittleEndian.i32(buffer, decoded.offset(HeaderKind.ICRC), new FrameDecoder().decode(buffer, 0, copy.length)
            .computeIcrc());
        return copy;
    }

    /** The BTH PSN of a RoCEv2/IPv4 frame without options. */
    static int psn(final byte[] frame) {
        return (frame[51] & 0xFF) << 16 | (frame[52] & 0xFF) << 8 | frame[53] & 0xFF;
    }
}
