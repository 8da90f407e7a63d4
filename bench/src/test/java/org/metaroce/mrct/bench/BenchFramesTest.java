package org.metaroce.mrct.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.zip.CRC32;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metaroce.mrct.wire.DecodedFrame;
import org.metaroce.mrct.wire.FrameDecoder;
import org.metaroce.mrct.wire.HeaderKind;
import org.metaroce.mrct.wire.LittleEndian;
import org.metaroce.mrct.wire.Opcode;

/** The benchmarks measure what they claim: the frames are what the Javadoc says and every path builds the same. */
class BenchFramesTest {
    @Test
    void theAllocationFreeWriterAndFrameBuilderBuildTheSameBytes() {
        final BenchFrames writer = new BenchFrames();
        final ByteBuffer buffer = ByteBuffer.allocate(BenchFrames.FRAME_LENGTH);
        for (final int n : new int[] {0, 1, 77, 0xFFFFFF}) {
            final byte[] payload = BenchFrames.payload(n);
            assertThat(writer.write(buffer, 0, n, payload)).isEqualTo(BenchFrames.FRAME_LENGTH);
            assertThat(buffer.array()).as("frame %d", n).isEqualTo(BenchFrames.builder(n, payload).build());
        }
    }

    @Test
    void everyRingFrameIsADistinctValidRdmaWriteOf1KiB() {
        final ByteBuffer ring = BenchFrames.ring(DecodeBenchmark.RING);
        final FrameDecoder decoder = new FrameDecoder();
        for (int i = 0; i < DecodeBenchmark.RING; i++) {
            final DecodedFrame frame = decoder.decode(ring, i * BenchFrames.FRAME_LENGTH, BenchFrames.FRAME_LENGTH);
            assertThat(frame.isRoce()).as("frame %d", i).isTrue();
            assertThat(frame.icrcValid()).as("frame %d", i).isTrue();
            assertThat(frame.opcode()).isEqualTo(Opcode.RDMA_WRITE_ONLY);
            assertThat(frame.tver()).isZero();
            assertThat(frame.has(HeaderKind.IPV4)).isTrue();
            assertThat(frame.bth().psn()).isEqualTo(i);
            assertThat(frame.reth().va()).isEqualTo(BenchFrames.BASE_VA + (long) i * BenchFrames.PAYLOAD);
            assertThat(frame.payloadLength()).isEqualTo(1024);
        }
        assertThat(BenchFrames.FRAME_LENGTH).isEqualTo(14 + 20 + 8 + 12 + 16 + 1024 + 4);
    }

    @Test
    void theBenchmarkMethodsDoTheWork() {
        final DecodeBenchmark decode = new DecodeBenchmark();
        decode.setUp();
        for (int i = 0; i < 2 * DecodeBenchmark.RING; i++) {
            assertThat(decode.decodeAndVerify()).isTrue();
        }
        assertThat(decode.decodeOnly()).isZero();
        final EncodeBenchmark encode = new EncodeBenchmark();
        encode.setUp();
        encode.flyweights();
        assertThat(encode.frameBuilder()).hasSize(BenchFrames.FRAME_LENGTH);
        final Crc32Benchmark crc = new Crc32Benchmark();
        crc.setUp();
        final CRC32 expected = new CRC32();
        expected.update(crc.ring().array(), 0, BenchFrames.FRAME_LENGTH);
        assertThat(crc.crc32()).isEqualTo(expected.getValue());
        for (int i = 1; i < 2 * DecodeBenchmark.RING; i++) {
            final int frame = (i % DecodeBenchmark.RING) * BenchFrames.FRAME_LENGTH;
            assertThat(crc.icrc()).isEqualTo(LittleEndian.i32(crc.ring(), frame + BenchFrames.FRAME_LENGTH - 4));
        }
    }

    @Test
    void theGeneratedCaptureReadsBackValid(@TempDir final Path dir) throws IOException {
        final Path file = dir.resolve("bench.pcap");
        CaptureGenerator.write(file, 3000);
        final CaptureDecoding.Counts counts = CaptureDecoding.pass(file, new FrameDecoder());
        assertThat(counts).isEqualTo(new CaptureDecoding.Counts(3000, 3000, 3000, 3000L * BenchFrames.FRAME_LENGTH));
    }
}
