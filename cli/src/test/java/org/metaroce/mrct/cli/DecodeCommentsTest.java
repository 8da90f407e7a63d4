package org.metaroce.mrct.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metaroce.mrct.wire.capture.CaptureReader;
import org.metaroce.mrct.wire.capture.PcapngWriter;

/** {@code mrct decode --comments}: each frame's pcapng comment, so that a frame of the evidence names its case. */
class DecodeCommentsTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private Path capture() throws IOException {
        final Path file = dir.resolve("commented.pcapng");
        try (PcapngWriter writer = PcapngWriter.create(file, PcapngWriter.Options.defaults())) {
            writer.addInterface(CaptureReader.LINKTYPE_ETHERNET, "to-dut", 9);
            writer.addInterface(147, "control", 9);
            final byte[] write = Crafted.writeOnly().build();
            writer.write(0, 1_000, ByteBuffer.wrap(write), 0, write.length,
                "mrct case=PLC-001 step=2 dir=to-dut index=0 verdict=PASS note=sent time=0");
            final byte[] other = Crafted.notRoce();
            writer.write(0, 2_000, ByteBuffer.wrap(other), 0, other.length, null);
            final byte[] record = "{\"index\":0,\"op\":\"reset\"}".getBytes(StandardCharsets.UTF_8);
            writer.write(1, 3_000, ByteBuffer.wrap(record), 0, record.length, "first line\nsecond line");
        }
        return file;
    }

    @Test
    void jsonEndsEveryObjectWithItsCommentOrNull() throws IOException {
        final Path file = capture();
        final Mrct.Run run = Mrct.run("decode", "--comments", file.toString());
        assertThat(run.status()).as(run.err()).isZero();
        final List<JsonNode> objects = new ArrayList<>();
        for (final String line : run.lines()) {
            objects.add(JSON.readTree(line));
        }
        assertThat(objects).hasSize(3);
        assertThat(objects.get(0).path("comment").asText())
            .isEqualTo("mrct case=PLC-001 step=2 dir=to-dut index=0 verdict=PASS note=sent time=0");
        assertThat(lastKey(objects.get(0))).isEqualTo("comment");
        assertThat(objects.get(0).path("bth").path("opname").asText()).isEqualTo("RDMA_WRITE_ONLY");
        assertThat(objects.get(1).get("comment").isNull()).isTrue();
        assertThat(objects.get(2).path("link_type").asInt()).isEqualTo(147);
        assertThat(objects.get(2).path("comment").asText()).isEqualTo("first line\nsecond line");
        assertThat(lastKey(objects.get(2))).isEqualTo("comment");
    }

    @Test
    void withoutTheOptionThereIsNoCommentKey() throws IOException {
        final Mrct.Run run = Mrct.run("decode", capture().toString());
        assertThat(run.status()).isZero();
        assertThat(run.lines()).hasSize(3).noneMatch(line -> line.contains("\"comment\""));
    }

    @Test
    void textPutsTheCommentOnIndentedLinesAfterItsFrame() throws IOException {
        final Mrct.Run run = Mrct.run("decode", "--format", "text", "--comments", capture().toString());
        assertThat(run.status()).as(run.err()).isZero();
        final List<String> lines = run.lines();
        assertThat(lines).hasSize(6);
        assertThat(lines.get(0)).startsWith("      1 ").contains("RDMA_WRITE_ONLY");
        assertThat(lines.get(1))
            .isEqualTo("         # mrct case=PLC-001 step=2 dir=to-dut index=0 verdict=PASS note=sent time=0");
        assertThat(lines.get(2)).startsWith("      2 ").contains("not RoCE");
        assertThat(lines.get(3)).startsWith("      3 ").contains("link type 147");
        assertThat(lines.subList(4, 6)).containsExactly("         # first line", "         # second line");
    }

    @Test
    void roceOnlyLeavesOutTheCommentsOfTheFramesItLeavesOut() throws IOException {
        final Mrct.Run run = Mrct.run("decode", "--format", "text", "--roce-only", "--comments",
            capture().toString());
        assertThat(run.status()).isZero();
        assertThat(run.lines()).hasSize(2);
        assertThat(run.lines().get(1)).contains("case=PLC-001");
    }

    private static String lastKey(final JsonNode node) {
        final List<String> names = new ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        return names.get(names.size() - 1);
    }
}
