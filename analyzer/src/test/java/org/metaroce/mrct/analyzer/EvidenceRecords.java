package org.metaroce.mrct.analyzer;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.metaroce.mrct.wire.capture.CaptureReader;
import org.metaroce.mrct.wire.capture.PcapngWriter;

/**
 * The records of an mrct evidence file, read whole and written back (edited), with the four interfaces the evidence
 * writer declares (0 to-dut, 1 from-dut, 2 control, 3 memory) and the section header's comment.
 */
final class EvidenceRecords {
    /** One record: interface, timestamp, bytes, length on the wire, comment. */
    record Rec(int iface, long ts, byte[] bytes, long original, String comment) {
        Rec withComment(final String newComment) {
            return new Rec(iface, ts, bytes, original, newComment);
        }
    }

    private EvidenceRecords() {
    }

    static List<Rec> read(final Path file) throws IOException {
        final List<Rec> out = new ArrayList<>();
        try (CaptureReader r = CaptureReader.open(file)) {
            while (r.next()) {
                final byte[] b = new byte[r.capturedLength()];
                r.buffer().get(r.offset(), b);
                out.add(new Rec(r.interfaceId(), r.timestampNanos(), b, r.originalLength(), r.comment()));
            }
        }
        return out;
    }

    static String section(final Path file) throws IOException {
        try (CaptureReader r = CaptureReader.open(file)) {
            r.next();
            return r.sectionComment();
        }
    }

    static Path write(final Path file, final String section, final List<Rec> records) throws IOException {
        try (PcapngWriter w = PcapngWriter.create(file, PcapngWriter.Options.defaults().withComment(section))) {
            w.addInterface(1, "to-dut", 9);
            w.addInterface(1, "from-dut", 9);
            w.addInterface(147, "control", 9);
            w.addInterface(148, "memory", 9);
            for (final Rec r : records) {
                w.write(r.iface(), r.ts(), ByteBuffer.wrap(r.bytes()), 0, r.bytes().length, r.original(), r.comment());
            }
        }
        return file;
    }
}
