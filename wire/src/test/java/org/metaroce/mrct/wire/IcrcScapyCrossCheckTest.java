package org.metaroce.mrct.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metaroce.mrct.testing.ExternalTool;
import org.metaroce.mrct.testing.RandomFrames;
import org.metaroce.mrct.testing.Seeds;

/**
 * Our ICRC against scapy's ({@code scapy.contrib.roce}, IPv4 only) on many random frames. Runs Debian's
 * {@code /usr/bin/python3}, for which python3-scapy is installed, because another python3 may come first on PATH.
 */
class IcrcScapyCrossCheckTest {
    private static final String PYTHON = "/usr/bin/python3";

    @Test
    void scapyComputesTheSameIcrcForRandomFrames(@TempDir final Path dir) throws IOException {
        ExternalTool.assumeWorks("the scapy cross-check needs python3-scapy", PYTHON, "-c", "import scapy.contrib.roce");
        final SplittableRandom random = Seeds.random("IcrcScapyCrossCheckTest", 0x5CA9L);
        final RandomFrames frames = new RandomFrames(random);
        final FrameDecoder decoder = new FrameDecoder();
        final List<String> hexFrames = new ArrayList<>();
        final List<String> ours = new ArrayList<>();
        while (hexFrames.size() < 1500) {
            FrameBuilder builder = frames.frame();
            if (builder.encapsulation().network() != Encapsulation.Network.IPV4) {
                builder = builder.encapsulation(Encapsulation.ipv4("10.0.0." + (1 + random.nextInt(200)), "10.9.8.7")
                    .withUdpSourcePort(0xC000 + random.nextInt(0x4000)).withTtl(random.nextInt(256))
                    .withDscp(random.nextInt(64)));
            }
            final byte[] bytes = builder.build();
            final DecodedFrame f = decoder.decode(ByteBuffer.wrap(bytes), 0, bytes.length);
            assertThat(f.isRoce()).isTrue();
            hexFrames.add(HexFormat.of().formatHex(bytes));
            ours.add(FrameDescription.wireHex(f.icrcOnWire()));
        }
        final Path input = dir.resolve("frames.hex");
        Files.write(input, hexFrames);
        final Path script = dir.resolve("icrc.py");
        try (var in = getClass().getResourceAsStream("/scapy/icrc.py")) {
            Files.copy(in, script);
        }
        final ExternalTool.Result result = ExternalTool.run(300, PYTHON, script.toString(), input.toString());
        assertThat(result.exitCode()).as(result.stderr()).isZero();
        final List<String> theirs = result.stdout().lines().toList();
        assertThat(theirs).hasSameSizeAs(ours);
        for (int i = 0; i < ours.size(); i++) {
            assertThat(ours.get(i)).as("frame %d: %s", i, hexFrames.get(i)).isEqualTo(theirs.get(i));
        }
    }
}
