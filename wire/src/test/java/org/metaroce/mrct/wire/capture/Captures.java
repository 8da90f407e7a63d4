package org.metaroce.mrct.wire.capture;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/** Test helpers: files from bytes, frames out of a reader, read-everything and read-until-damage. */
final class Captures {
    private Captures() {
    }

    /** Writes {@code content} to {@code dir/name}. */
    static Path file(final Path dir, final String name, final byte[] content) {
        try {
            return Files.write(dir.resolve(name), content);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Bytes from hex digits; spaces and line breaks are ignored. */
    static byte[] hex(final String digits) {
        return HexFormat.of().parseHex(digits.replaceAll("\\s+", ""));
    }

    /** A copy of the current frame, read through the reader's buffer view. */
    static byte[] frame(final CaptureReader reader) {
        final byte[] bytes = new byte[reader.capturedLength()];
        reader.buffer().get(reader.offset(), bytes);
        return bytes;
    }

    /** One record as a value, every accessor's answer. */
    record Record(long number, long byteOffset, long timestampNanos, boolean timestampKnown, int interfaceId,
            int linkType, String interfaceName, int capturedLength, long originalLength, String comment,
            ByteBuffer bytes) {
        static Record of(final CaptureReader reader) {
            return new Record(reader.recordNumber(), reader.byteOffset(), reader.timestampNanos(),
                    reader.timestampKnown(), reader.interfaceId(), reader.linkType(), reader.interfaceName(),
                    reader.capturedLength(), reader.originalLength(), reader.comment(),
                    ByteBuffer.wrap(frame(reader)));
        }
    }

    /** Every record of a file that must read cleanly to its end. */
    static List<Record> readAll(final Path path) throws IOException {
        try (CaptureReader reader = CaptureReader.open(path)) {
            final List<Record> records = new ArrayList<>();
            while (reader.next()) {
                records.add(Record.of(reader));
            }
            return records;
        }
    }

    /** The records delivered before the damage, and the damage (null when the file ended cleanly). */
    record Outcome(List<Record> records, CaptureFormatException damage) {
    }

    /** Reads until the end or the first damage, from opening on. */
    static Outcome readUntilDamage(final Path path, final int bufferSize) throws IOException {
        final List<Record> records = new ArrayList<>();
        try (CaptureReader reader = CaptureReader.open(path, bufferSize)) {
            while (reader.next()) {
                records.add(Record.of(reader));
            }
            return new Outcome(records, null);
        } catch (CaptureFormatException e) {
            return new Outcome(records, e);
        }
    }

    /** The damage a file must be reported with, after all its good records. */
    static CaptureFormatException damage(final Path path) throws IOException {
        final Outcome outcome = readUntilDamage(path, CaptureReader.DEFAULT_BUFFER_SIZE);
        assertThat(outcome.damage()).as("damage in %s after %d records", path.getFileName(), outcome.records().size())
                .isNotNull();
        return outcome.damage();
    }
}
