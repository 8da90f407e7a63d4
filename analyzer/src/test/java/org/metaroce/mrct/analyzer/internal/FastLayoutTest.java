package org.metaroce.mrct.analyzer.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.metaroce.mrct.wire.DecodeStatus;
import org.metaroce.mrct.wire.DecodedFrame;
import org.metaroce.mrct.wire.Encapsulation;
import org.metaroce.mrct.wire.FrameBuilder;
import org.metaroce.mrct.wire.FrameDecoder;
import org.metaroce.mrct.wire.HeaderKind;
import org.metaroce.mrct.wire.Opcode;
import org.metaroce.mrct.wire.RoceVersion;
import org.metaroce.mrct.testing.Seeds;

/**
 * {@link FastLayout} against the decoder it stands in for: wherever it lays a frame out, {@link FrameDecoder} finds
 * the same IP header (so the dispatcher routes the frame by the same addresses as the shard keys it), UDP header, BTH
 * and ICRC (so the ICRC computed ahead covers what the shard's decode covers). Frames built whole over IPv4, IPv6, with
 * a VLAN tag and as RoCEv1, then damaged at random in their first 80 bytes and cut short (seeded, the seed printed: {@link Seeds}).
 */
public class FastLayoutTest {
    private static final long SEED = 20261203L;

    private static List<byte[]> wholeFrames() {
        final List<byte[]> frames = new ArrayList<>();
        final Encapsulation[] encapsulations = {
            Encapsulation.ipv4("10.0.0.1", "10.0.0.2"),
            Encapsulation.ipv6("fd00::1", "fd00::2"),
            Encapsulation.ipv4("10.0.0.1", "10.0.0.2").withVlan(5, 3),
            Encapsulation.ipv6("fd00::1", "fd00::2").withVlan(7, 0),
            Encapsulation.roceV1("fe80::1", "fe80::2"),
        };
        final Opcode[] opcodes = {Opcode.SEND_ONLY, Opcode.RDMA_WRITE_ONLY, Opcode.ACKNOWLEDGE,
            Opcode.RDMA_READ_REQUEST, Opcode.RDMA_READ_RESPONSE_MIDDLE, Opcode.CNP};
        for (final Encapsulation e : encapsulations) {
            for (final Opcode op : opcodes) {
                for (final int payload : new int[] {0, 1, 64, 1000}) {
                    frames.add(FrameBuilder.of(e, op).payload(new byte[payload]).build());
                }
            }
        }
        return frames;
    }

    /** The decoder's layout of {@code frame} at offset 3 of a larger buffer, as FastLayout reports positions. */
    private static void assertSameLayout(final byte[] frame, final String what) {
        final ByteBuffer buffer = ByteBuffer.allocateDirect(frame.length + 7);
        buffer.put(3, frame);
        final FastLayout fast = new FastLayout();
        if (!fast.locate(buffer, 3, frame.length)) {
            return;
        }
        final DecodedFrame d = new FrameDecoder().decode(buffer, 3, frame.length);
        assertThat(d.status()).as(what).isNotEqualTo(DecodeStatus.NOT_ROCE);
        assertThat(d.ipVersion()).as(what).isEqualTo(fast.ipv6 ? 6 : 4);
        assertThat(d.offset(fast.ipv6 ? HeaderKind.IPV6 : HeaderKind.IPV4)).as(what).isEqualTo(fast.ip);
        assertThat(d.ipHeaderLength()).as(what).isEqualTo(fast.ipLength);
        assertThat(d.offset(HeaderKind.UDP)).as(what).isEqualTo(fast.udp);
        assertThat(d.offset(HeaderKind.BTH)).as(what).isEqualTo(fast.bth);
        assertThat(d.offset(HeaderKind.ICRC)).as(what).isEqualTo(fast.icrc);
    }

    @Test
    void everyWholeUntaggedRoceV2FrameIsLaidOutAsTheDecoderLaysItOut() {
        int located = 0;
        for (final byte[] frame : wholeFrames()) {
            final ByteBuffer buffer = ByteBuffer.wrap(frame);
            final DecodedFrame d = new FrameDecoder().decode(buffer, 0, frame.length);
            final boolean untaggedV2 = d.isRoce() && !d.has(HeaderKind.VLAN) && d.version() == RoceVersion.V2;
            assertThat(new FastLayout().locate(buffer, 0, frame.length))
                .as("%d-byte frame, decoded %s %s IPv%d, %s", frame.length, d.status(), d.version(), d.ipVersion(),
                    d.has(HeaderKind.VLAN) ? "tagged" : "untagged")
                .isEqualTo(untaggedV2);
            assertSameLayout(frame, "whole frame of " + frame.length + " bytes");
            located += untaggedV2 ? 1 : 0;
        }
        assertThat(located).as("IPv4 and IPv6 frames, 6 opcodes, 4 payloads").isEqualTo(2 * 6 * 4);
    }

    @Test
    void damagedAndCutFramesAreEitherLeftToTheDecoderOrLaidOutAsItLaysThemOut() {
        final SplittableRandom random = Seeds.random("FastLayoutTest.damaged", SEED);
        final List<byte[]> whole = wholeFrames();
        int located = 0;
        int refused = 0;
        for (int round = 0; round < 20_000; round++) {
            final byte[] frame = whole.get(random.nextInt(whole.size())).clone();
            final int flips = 1 + random.nextInt(3);
            final StringBuilder what = new StringBuilder("round " + round + ":");
            for (int k = 0; k < flips; k++) {
                final int at = random.nextInt(Math.min(80, frame.length));
                // a few values that reach the decoder's branches (lengths, ports, protocol, version) besides noise
                final int[] values = {random.nextInt(256), 0, 0xFF, 0x45, 0x60, 0x11, 0x12, 0xB7, 0x08, 0x86};
                frame[at] = (byte) values[random.nextInt(values.length)];
                what.append(" byte ").append(at).append('=').append(frame[at] & 0xFF);
            }
            final byte[] tested = random.nextInt(4) == 0
                ? java.util.Arrays.copyOf(frame, random.nextInt(frame.length + 1)) : frame;
            if (tested.length != frame.length) {
                what.append(" cut to ").append(tested.length);
            }
            assertSameLayout(tested, what.toString());
            if (new FastLayout().locate(ByteBuffer.wrap(tested), 0, tested.length)) {
                located++;
            } else {
                refused++;
            }
        }
        // both sides of the comparison were exercised
        assertThat(located).isGreaterThan(1_000);
        assertThat(refused).isGreaterThan(1_000);
    }
}
