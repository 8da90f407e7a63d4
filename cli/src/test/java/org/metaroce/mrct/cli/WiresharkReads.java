package org.metaroce.mrct.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.metaroce.mrct.testing.ExternalTool;
import org.metaroce.mrct.wire.capture.CaptureReader;

/** Checks that Wireshark's own tools read every packet of an evidence file (none over its 256 KiB limit). */
final class WiresharkReads {
    /** The most Wireshark reads in one packet (WTAP_MAX_PACKET_SIZE_STANDARD). */
    static final int WIRESHARK_MAX_PACKET = 256 * 1024;

    private WiresharkReads() {
    }

    /**
     * Asserts that no packet block of {@code evidence} is larger than Wireshark reads, and (when they are installed,
     * else the caller has skipped) that capinfos counts and tshark reads every packet; returns the packet count.
     */
    static long assertEveryPacketRead(final Path evidence) throws IOException {
        long packets = 0;
        long largestBlock = 0;
        try (CaptureReader reader = CaptureReader.open(evidence)) {
            while (reader.next()) {
                packets++;
                final String comment = reader.comment();
                final long block = 32 + ((reader.capturedLength() + 3) & ~3)
                    + (comment == null ? 0 : 4 + ((comment.getBytes(StandardCharsets.UTF_8).length + 3) & ~3)) + 4;
                largestBlock = Math.max(largestBlock, block);
            }
        }
        assertThat(largestBlock).as("the largest packet block of " + evidence).isLessThanOrEqualTo(
            WIRESHARK_MAX_PACKET);
        final ExternalTool.Result capinfos = ExternalTool.run(300, "capinfos", "-c", "-M", evidence.toString());
        assertThat(capinfos.exitCode()).as(capinfos.stderr()).isZero();
        final Matcher count = Pattern.compile("Number of packets:\\s+(\\d+)").matcher(capinfos.stdout());
        assertThat(count.find()).as(capinfos.stdout()).isTrue();
        assertThat(Long.parseLong(count.group(1))).as("capinfos's packet count").isEqualTo(packets);
        final ExternalTool.Result tshark = ExternalTool.run(900, "tshark", "-n", "-r", evidence.toString(), "-T",
            "fields", "-e", "frame.number");
        assertThat(tshark.exitCode()).as(tshark.stderr()).isZero();
        assertThat(tshark.stderr()).doesNotContain("cap_len", "appears to be damaged", "isn't a capture file");
        final String[] lines = tshark.stdout().strip().split("\n");
        assertThat(lines).as("packets tshark read").hasSize((int) packets);
        assertThat(lines[lines.length - 1]).isEqualTo(Long.toString(packets));
        return packets;
    }
}
