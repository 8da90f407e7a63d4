package org.metaroce.mrct.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.metaroce.mrct.wire.Encapsulation;
import org.metaroce.mrct.wire.FrameBuilder;
import org.metaroce.mrct.wire.Opcode;
import org.metaroce.mrct.wire.capture.CaptureFormat;
import org.metaroce.mrct.wire.capture.PcapWriter;

/** Crafted frames with known field values, and the pcap files the tests decode. */
final class Crafted {
    /** Timestamp of the first frame of a crafted file; the others follow 1.5 ms apart. */
    static final long T0 = 1_700_000_000_123_456_789L;
    static final long STEP = 1_500_000L;

    static final Encapsulation V4 = Encapsulation.ipv4("192.0.2.1", "198.51.100.2");

    private Crafted() {
    }

    /** MetaRoCE RDMA WRITE ONLY: PLETH, RETH, 101 bytes of payload (so 3 pad bytes), ECN CE. */
    static FrameBuilder writeOnly() {
        final byte[] payload = new byte[101];
        for (int i = 0; i < payload.length; i++) {
            payload[i] = (byte) (i * 7);
        }
        return FrameBuilder.of(V4, Opcode.RDMA_WRITE_ONLY).payload(payload).ecn(3).psn(0xABCDEF).destQp(0x123456)
            .ackReq(true).with("pleth.msn", 7).with("pleth.offset", 4096).with("pleth.rsn", 3)
            .with("reth.va", 0x00007F0000001000L).with("reth.rkey", 0xDEADBEEFL).with("reth.dmalen", 8192);
    }

    /** MetaRoCE ACKNOWLEDGE over IPv6 with a VLAN tag: AETH (NAK invalid request) and SACKETH. */
    static FrameBuilder sack() {
        return FrameBuilder.of(Encapsulation.ipv6("2001:db8::1", "2001:db8::2").withVlan(100, 3),
                Opcode.ACKNOWLEDGE).psn(77).destQp(9).with("aeth.syndrome", 0x61).with("aeth.msn", 42)
            .with("sacketh.base", 1000).with("sacketh.bitmap", 0x8000000000000001L);
    }

    /** RoCEv2 RDMA WRITE ONLY whose RETH is missing: decodes as MALFORMED, TRUNCATED at the RETH (byte 54). */
    static FrameBuilder missingReth() {
        return FrameBuilder.of(V4, Opcode.RDMA_WRITE_ONLY).tver(0).headers();
    }

    /** A 60-byte ARP-like frame: not RoCE. */
    static byte[] notRoce() {
        final byte[] frame = new byte[60];
        for (int i = 0; i < 6; i++) {
            frame[i] = (byte) 0xFF;
        }
        frame[12] = 0x08;
        frame[13] = 0x06;
        return frame;
    }

    /** Writes {@code frames} as a nanosecond pcap, {@link #T0} then {@link #STEP} apart. */
    static Path pcap(final Path file, final List<byte[]> frames) throws IOException {
        return pcap(file, frames, PcapWriter.Options.defaults().withFormat(CaptureFormat.PCAP_NANO));
    }

    /** Writes {@code frames} with the given options, {@link #T0} then {@link #STEP} apart. */
    static Path pcap(final Path file, final List<byte[]> frames, final PcapWriter.Options options)
            throws IOException {
        try (PcapWriter writer = PcapWriter.create(file, options)) {
            long t = T0;
            for (final byte[] frame : frames) {
                writer.write(t, frame);
                t += STEP;
            }
        }
        return file;
    }
}
