package org.metaroce.mrct.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Exit statuses and the one-line messages of {@code mrct decode} on unreadable input and failing output. */
class DecodeErrorsTest {
    @TempDir
    Path dir;

    @Test
    void aMissingFileIsOneLineAndStatus2() {
        final Path missing = dir.resolve("missing.pcap");
        final Mrct.Run run = Mrct.run("decode", missing.toString());
        assertThat(run.status()).isEqualTo(2);
        assertThat(run.out()).isEmpty();
        assertThat(run.err()).isEqualTo("mrct decode: " + missing + ": no such file" + System.lineSeparator());
    }

    @Test
    void aFileThatIsNotACaptureIsOneLineAndStatus2() throws IOException {
        final Path text = Files.writeString(dir.resolve("notes.txt"), "these are notes, not packets\n");
        final Mrct.Run run = Mrct.run("decode", text.toString());
        assertThat(run.status()).isEqualTo(2);
        assertThat(run.out()).isEmpty();
        assertThat(run.errLines()).singleElement().asString()
            .startsWith("mrct decode: " + text + ": byte 0 (record 1): not a pcap or pcapng file");
    }

    @Test
    void anEmptyFileAndADirectoryAreUnreadable() throws IOException {
        final Path empty = Files.createFile(dir.resolve("empty.pcap"));
        final Mrct.Run run = Mrct.run("decode", empty.toString(), dir.toString());
        assertThat(run.status()).isEqualTo(2);
        assertThat(run.errLines()).containsExactly(
            "mrct decode: " + empty + ": byte 0 (record 1): empty file: not a pcap or pcapng file",
            "mrct decode: " + dir + ": is a directory");
    }

    @Test
    void aTruncatedCaptureKeepsTheFramesBeforeTheDamage() throws IOException {
        final List<byte[]> frames = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            frames.add(Crafted.writeOnly().psn(i).build());
        }
        final Path file = Crafted.pcap(dir.resolve("cut.pcap"), frames);
        final long seventh = 24 + 6L * (16 + frames.get(0).length);
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            channel.truncate(seventh + 16 + 10);
        }
        final Mrct.Run run = Mrct.run("decode", file.toString());
        assertThat(run.status()).isEqualTo(2);
        assertThat(run.lines()).hasSize(6);
        assertThat(run.lines().get(5)).startsWith("{\"frame\":6,");
        assertThat(run.errLines()).singleElement().asString()
            .startsWith("mrct decode: " + file + ": byte " + seventh + " (record 7): ");
        final Mrct.Run text = Mrct.run("decode", "--format", "text", file.toString());
        assertThat(text.status()).isEqualTo(2);
        assertThat(text.lines()).hasSize(6);
        assertThat(text.errLines()).hasSize(1);
    }

    @Test
    void theOtherFilesAreStillDecodedAfterABadOne() throws IOException {
        final Path good = Crafted.pcap(dir.resolve("good.pcap"), List.of(Crafted.sack().build()));
        final Path missing = dir.resolve("nope.pcap");
        final Mrct.Run run = Mrct.run("decode", missing.toString(), good.toString());
        assertThat(run.status()).isEqualTo(2);
        assertThat(run.lines()).singleElement().asString().startsWith("{\"file\":\"" + good + "\",\"frame\":1,");
        assertThat(run.errLines()).containsExactly("mrct decode: " + missing + ": no such file");
    }

    @Test
    void neverAStackTrace() throws IOException {
        final Path garbage = dir.resolve("garbage.pcap");
        final byte[] bytes = new byte[4096];
        bytes[0] = (byte) 0xD4;
        bytes[1] = (byte) 0xC3;
        bytes[2] = (byte) 0xB2;
        bytes[3] = (byte) 0xA1;
        bytes[4] = 2;
        for (int i = 24; i < bytes.length; i++) {
            bytes[i] = (byte) 0xFF;
        }
        Files.write(garbage, bytes);
        final Mrct.Run run = Mrct.run("decode", garbage.toString(), "bad\u0000name");
        assertThat(run.status()).isEqualTo(2);
        assertThat(run.errLines()).hasSize(2).allSatisfy(line -> assertThat(line).startsWith("mrct decode: ")
            .doesNotContain("Exception").doesNotContain("\tat "));
    }

    @Test
    void usageErrorsAreStatus2() {
        final Mrct.Run unknown = Mrct.run("decode", "--frobnicate", "x.pcap");
        assertThat(unknown.status()).isEqualTo(2);
        assertThat(unknown.err()).contains("Unknown option: '--frobnicate'");
        assertThat(Mrct.run("decode").status()).isEqualTo(2);
        assertThat(Mrct.run("decode", "--format", "xml", "x.pcap").status()).isEqualTo(2);
        final Mrct.Run bare = Mrct.run();
        assertThat(bare.status()).isEqualTo(2);
        assertThat(bare.err()).contains("Usage: mrct", "decode");
    }

    @Test
    void aFailingOutputEndsTheCommandWithStatus1() throws IOException {
        final List<byte[]> frames = new ArrayList<>();
        for (int i = 0; i < 2000; i++) {
            frames.add(Crafted.writeOnly().psn(i).build());
        }
        final Path file = Crafted.pcap(dir.resolve("many.pcap"), frames);
        final int[] writes = {0};
        final OutputStream broken = new OutputStream() {
            @Override
            public void write(final int b) throws IOException {
                writes[0]++;
                throw new IOException("Broken pipe");
            }

            @Override
            public void write(final byte[] b, final int off, final int len) throws IOException {
                writes[0]++;
                throw new IOException("Broken pipe");
            }
        };
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final int status = Main.run(new String[] {"decode", file.toString()}, new PrintStream(broken, false),
            new PrintStream(err, true, StandardCharsets.UTF_8));
        assertThat(status).isEqualTo(1);
        assertThat(err.toString(StandardCharsets.UTF_8).lines().toList()).singleElement().asString()
            .startsWith("mrct decode: the output stream cannot be written to");
        assertThat(writes[0]).as("stopped at the first failed write").isEqualTo(1);
    }
}
