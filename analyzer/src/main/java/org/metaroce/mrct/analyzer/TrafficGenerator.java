package org.metaroce.mrct.analyzer;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Objects;
import java.util.SplittableRandom;
import org.metaroce.mrct.wire.BigEndian;
import org.metaroce.mrct.wire.Checksums;
import org.metaroce.mrct.wire.DecodedFrame;
import org.metaroce.mrct.wire.Encapsulation;
import org.metaroce.mrct.wire.FrameBuilder;
import org.metaroce.mrct.wire.FrameDecoder;
import org.metaroce.mrct.wire.HeaderKind;
import org.metaroce.mrct.wire.LittleEndian;
import org.metaroce.mrct.wire.Opcode;
import org.metaroce.mrct.wire.Psn;
import org.metaroce.mrct.wire.capture.CaptureFormat;
import org.metaroce.mrct.wire.capture.PcapWriter;

/**
 * Writes a conforming MetaRoCE v1 conversation, as a capture taken at the requester would show it: one QP sends RDMA
 * WRITEs of 1 to 8 packets (PMTU 1024) to another, which acknowledges with SACKETH; optionally some request packets
 * are lost in the network (the capture still holds them, as sent) and recovered by selective retransmission once 16
 * later PSNs are acknowledged, some arrive CE-marked and are answered with paced CNPs, after which the requester
 * halves its rate for a while, and the requester sprays its packets over four UDP source ports. Every random choice
 * comes from the seed. It feeds {@code bench/analyze-compare.sh} and the tests of {@code mrct analyze}.
 */
public final class TrafficGenerator {
    /** PMTU of the generated connection. */
    public static final int PMTU = 1024;
    /** QPN of the requester's QP. */
    public static final int REQUESTER_QPN = 0x000011;
    /** QPN of the responder's QP. */
    public static final int RESPONDER_QPN = 0x000022;
    private static final int THRESHOLD = 16;
    private static final long GAP_NS = 100;
    private static final long CNP_INTERVAL_NS = 50_000;
    private static final long SLOW_NS = 200_000;

    /**
     * What to generate.
     *
     * @param frames  frames to write, about (the last message is finished)
     * @param seed    seed of every random choice
     * @param lossEvery one request packet in this many is lost and recovered (0: none)
     * @param ceEvery   one request packet in this many arrives CE-marked (0: none)
     * @param spray     spray the requests over four UDP source ports
     */
    public record Options(long frames, long seed, int lossEvery, int ceEvery, boolean spray) {
        public Options {
            if (frames < 1 || lossEvery < 0 || ceEvery < 0) {
                throw new IllegalArgumentException("frames must be positive, lossEvery and ceEvery not negative");
            }
        }

        /** Clean traffic: no loss, no CE, no spraying. */
        public static Options clean(final long frames, final long seed) {
            return new Options(frames, seed, 0, 0, false);
        }

        /** Losses (1 in 500), CE marks (1 in 300) and spraying. */
        public static Options eventful(final long frames, final long seed) {
            return new Options(frames, seed, 500, 300, true);
        }
    }

    /** The generated frames go here. */
    @FunctionalInterface
    public interface Sink {
        void frame(long tsNs, byte[] bytes) throws IOException;
    }

    private final Options options;
    private final SplittableRandom random;
    private final Encapsulation forward;
    private final Encapsulation backward;
    private final byte[] payload = new byte[PMTU];
    private long clock = 1_700_000_000_000_000_000L;
    private long written;
    private int ipId;
    private int responderIpId;

    // requester
    private int nextPsn;
    private int msn;
    private long firstTxSinceAckReq;
    private long slowUntil;
    // network and responder
    private int ePsn;
    private int responderMsn;
    private final BitSet recorded = new BitSet();
    private final ArrayDeque<int[]> lost = new ArrayDeque<>();
    private final HashMap<Integer, FrameBuilder> sentFrames = new HashMap<>();
    private final HashMap<Integer, Boolean> messageEnds = new HashMap<>();
    private final HashMap<Integer, Boolean> ackReqs = new HashMap<>();
    private long lastCnp = Long.MIN_VALUE / 2;

    private TrafficGenerator(final Options options) {
        this(options, 0);
    }

    /** The conversation between 10.0.{@code pair}.1 and 10.0.{@code pair}.2 (pair 0 to 255). */
    private TrafficGenerator(final Options options, final int pair) {
        this.forward = Encapsulation.ipv4("10.0." + pair + ".1", "10.0." + pair + ".2");
        this.backward = forward.reversed();
        this.clock += pair * 37_000L; // each pair starts a little later: the capture's first frame is pair 0's
        this.options = Objects.requireNonNull(options);
        this.random = new SplittableRandom(options.seed());
        random.nextBytes(payload);
        nextPsn = random.nextInt(Psn.MODULUS);
        ePsn = nextPsn;
    }

    /** Writes the conversation to a nanosecond pcap file; returns the number of frames written. */
    public static long write(final Path file, final Options options) throws IOException {
        try (PcapWriter writer = PcapWriter.create(file,
            PcapWriter.Options.defaults().withFormat(CaptureFormat.PCAP_NANO))) {
            return generate(options, (ts, bytes) -> writer.write(ts, ByteBuffer.wrap(bytes), 0, bytes.length));
        }
    }

    /** Hands the conversation's frames to {@code sink}, in order; returns how many. */
    public static long generate(final Options options, final Sink sink) throws IOException {
        final TrafficGenerator generator = new TrafficGenerator(options);
        while (generator.written < options.frames()) {
            generator.message(sink);
        }
        return generator.written;
    }

    /**
     * As {@link #generate}, with the conversation moved between the IPv4 hosts {@code requester} and {@code responder}
     * (IP checksum and ICRC sealed again): several such conversations, some sharing a host, make the capture of a
     * switch port whose hosts form groups.
     */
    public static long generateBetween(final Options options, final int requester, final int responder,
                                       final Sink sink) throws IOException {
        final FrameDecoder decoder = new FrameDecoder();
        return generate(options, (ts, bytes) -> {
            final ByteBuffer buffer = ByteBuffer.wrap(bytes);
            final DecodedFrame before = decoder.decode(buffer, 0, bytes.length);
            final boolean sealed = before.has(HeaderKind.ICRC) && before.icrcValid();
            final int ip = before.offset(HeaderKind.IPV4);
            final boolean forward = BigEndian.i32(buffer, ip + 12) == 0x0A000001;
            BigEndian.i32(buffer, ip + 12, forward ? requester : responder);
            BigEndian.i32(buffer, ip + 16, forward ? responder : requester);
            BigEndian.u16(buffer, ip + 10, 0);
            BigEndian.u16(buffer, ip + 10, Checksums.ipv4Header(buffer, ip));
            if (sealed) {
                final DecodedFrame after = decoder.decode(buffer, 0, bytes.length);
                LittleEndian.i32(buffer, after.offset(HeaderKind.ICRC), after.computeIcrc());
            }
            sink.frame(ts, bytes);
        });
    }

    /**
     * Writes {@code pairs} independent conversations (1 to 256) of about {@code options.frames() / pairs} frames each,
     * conversation k between 10.0.k.1 and 10.0.k.2 with seed {@code options.seed() + k}, starting 37 µs after
     * conversation k - 1, merged in timestamp order
     * (a capture at a switch port carrying several host pairs). Returns the number of frames written.
     */
    public static long writePairs(final Path file, final Options options, final int pairs) throws IOException {
        if (pairs < 1 || pairs > 256) {
            throw new IllegalArgumentException("pairs must be 1 to 256, not " + pairs);
        }
        final TrafficGenerator[] generators = new TrafficGenerator[pairs];
        final List<ArrayDeque<Object[]>> pending = new ArrayList<>();
        for (int k = 0; k < pairs; k++) {
            generators[k] = new TrafficGenerator(new Options(Math.max(1, options.frames() / pairs),
                options.seed() + k, options.lossEvery(), options.ceEvery(), options.spray()), k);
            pending.add(new ArrayDeque<>());
        }
        long written = 0;
        try (PcapWriter writer = PcapWriter.create(file,
            PcapWriter.Options.defaults().withFormat(CaptureFormat.PCAP_NANO))) {
            while (true) {
                int next = -1;
                for (int k = 0; k < pairs; k++) {
                    final ArrayDeque<Object[]> queue = pending.get(k);
                    if (queue.isEmpty() && generators[k].written < generators[k].options.frames()) {
                        generators[k].message((ts, bytes) -> queue.add(new Object[] {ts, bytes}));
                    }
                    if (!queue.isEmpty() && (next < 0
                        || (long) queue.peekFirst()[0] < (long) pending.get(next).peekFirst()[0])) {
                        next = k;
                    }
                }
                if (next < 0) {
                    return written;
                }
                final Object[] frame = pending.get(next).removeFirst();
                final byte[] bytes = (byte[]) frame[1];
                writer.write((long) frame[0], ByteBuffer.wrap(bytes), 0, bytes.length);
                written++;
            }
        }
    }

    /**
     * Writes {@code connections} one-frame connections, each an RDMA WRITE ONLY of 64 bytes to its own destination QP,
     * from up to 256 hosts to up to 256 others (for memory per connection: the analysis keeps every connection until
     * the end). Returns the number of frames written.
     */
    public static long writeConnections(final Path file, final int connections, final long seed) throws IOException {
        return writeConnections(file, connections, seed, 1_000);
    }

    /** As {@link #writeConnections(Path, int, long)}, the connections {@code spacingNs} apart. */
    public static long writeConnections(final Path file, final int connections, final long seed,
                                        final long spacingNs) throws IOException {
        final SplittableRandom random = new SplittableRandom(seed);
        final byte[] payload = new byte[64];
        random.nextBytes(payload);
        long clock = 1_700_000_000_000_000_000L;
        try (PcapWriter writer = PcapWriter.create(file,
            PcapWriter.Options.defaults().withFormat(CaptureFormat.PCAP_NANO))) {
            for (int i = 0; i < connections; i++) {
                final Encapsulation path = Encapsulation.ipv4("10.1." + (i & 0xFF) + ".1",
                    "10.2." + (i >>> 8 & 0xFF) + ".1").withUdpSourcePort(0xC000 + (i & 0x3FFF));
                final byte[] frame = FrameBuilder.of(path, Opcode.RDMA_WRITE_ONLY).payload(payload)
                    .psn(random.nextInt(Psn.MODULUS)).destQp(0x100 + i).ackReq(true).with("pleth.msn", 0)
                    .with("pleth.offset", 0).with("reth.va", 0x7f00_0000_0000L).with("reth.rkey", 0x1234)
                    .with("reth.dmalen", payload.length).with("ip.id", i & 0xFFFF).build();
                writer.write(clock, ByteBuffer.wrap(frame), 0, frame.length);
                clock += spacingNs;
            }
        }
        return connections;
    }

    private void message(final Sink sink) throws IOException {
        final int packets = 1 + random.nextInt(8);
        final long length = (long) (packets - 1) * PMTU + 1 + random.nextInt(PMTU);
        final long va = 0x7f00_0000_0000L + (random.nextLong() & 0xFFFF_F000L);
        final int rkey = 0x1234;
        for (int k = 0; k < packets; k++) {
            final Opcode opcode = packets == 1 ? Opcode.RDMA_WRITE_ONLY : k == 0 ? Opcode.RDMA_WRITE_FIRST
                : k == packets - 1 ? Opcode.RDMA_WRITE_LAST : Opcode.RDMA_WRITE_MIDDLE;
            final boolean last = k == packets - 1;
            final int size = last ? (int) (length - (long) k * PMTU) : PMTU;
            firstTxSinceAckReq++;
            final boolean ackReq = last || firstTxSinceAckReq >= THRESHOLD;
            if (ackReq) {
                firstTxSinceAckReq = 0;
            }
            final int psn = nextPsn;
            nextPsn = Psn.add(nextPsn, 1);
            FrameBuilder request = FrameBuilder.of(forward.withUdpSourcePort(port(psn)), opcode)
                .payload(Arrays.copyOf(payload, size)).psn(psn).destQp(RESPONDER_QPN).ackReq(ackReq)
                .with("pleth.msn", msn).with("pleth.offset", (long) k * PMTU).with("reth.va", va)
                .with("reth.rkey", rkey).with("reth.dmalen", length);
            final boolean ce = options.ceEvery() > 0 && random.nextInt(options.ceEvery()) == 0;
            sentFrames.put(psn, request);
            messageEnds.put(psn, last);
            ackReqs.put(psn, ackReq);
            emit(sink, clock, request.with("ip.id", ++ipId & 0xFFFF).ecn(ce ? 3 : 2).build());
            final boolean loss = options.lossEvery() > 0 && random.nextInt(options.lossEvery()) == 0;
            if (loss) {
                lost.add(new int[] {psn, 0});
            } else {
                arrive(sink, psn, ackReq, ce);
            }
            recover(sink);
            clock += clock < slowUntil ? 2 * GAP_NS : GAP_NS;
        }
        msn = Psn.add(msn, 1);
    }

    private int port(final int psn) {
        return options.spray() ? 0xC000 + (psn & 3) : 0xC100;
    }

    /** The packet reaches the responder: recorded, acknowledged as section 5 says, CE answered with a CNP. */
    private void arrive(final Sink sink, final int psn, final boolean ackReq, final boolean ce) throws IOException {
        final boolean outOfOrder = psn != ePsn;
        recorded.set(Psn.distance(ePsn, psn));
        final boolean holeClosed = advance() > 1;
        if (ce && clock - lastCnp >= CNP_INTERVAL_NS) {
            lastCnp = clock + 40;
            emit(sink, clock + 40, FrameBuilder.of(backward.withUdpSourcePort(0xC200), Opcode.CNP).ecn(0)
                .destQp(REQUESTER_QPN).with("ip.id", ++responderIpId & 0xFFFF).build());
            slowUntil = clock + SLOW_NS;
        }
        if (ackReq || outOfOrder || holeClosed) {
            emit(sink, clock + 50, ack());
        }
    }

    /** Moves ePSN over the recorded PSNs; returns how many it passed (more than 1: a hole closed). */
    private int advance() {
        int moved = 0;
        while (recorded.get(0)) {
            if (Boolean.TRUE.equals(messageEnds.get(ePsn))) {
                responderMsn = Psn.add(responderMsn, 1);
            }
            sentFrames.remove(ePsn);
            messageEnds.remove(ePsn);
            ackReqs.remove(ePsn);
            ePsn = Psn.add(ePsn, 1);
            final BitSet shifted = recorded.get(1, Math.max(1, recorded.length()));
            recorded.clear();
            recorded.or(shifted);
            moved++;
        }
        return moved;
    }

    private byte[] ack() {
        long bitmap = 0;
        for (int i = 1; i < 64; i++) {
            if (recorded.get(i)) {
                bitmap |= Long.MIN_VALUE >>> i;
            }
        }
        return FrameBuilder.of(backward.withUdpSourcePort(0xC200), Opcode.ACKNOWLEDGE).ecn(0)
            .psn(Psn.add(ePsn, -1)).destQp(REQUESTER_QPN).with("aeth.msn", responderMsn)
            .with("sacketh.base", ePsn).with("sacketh.bitmap", bitmap).with("ip.id", ++responderIpId & 0xFFFF)
            .build();
    }

    /**
     * Selective retransmission: a lost PSN is sent again once {@value #THRESHOLD} later PSNs are delivered (the
     * responder's SACKs said so).
     */
    private void recover(final Sink sink) throws IOException {
        while (!lost.isEmpty()) {
            final int psn = lost.peekFirst()[0];
            final int after = Psn.distance(psn, nextPsn) - 1;
            if (after < THRESHOLD + 2) {
                return;
            }
            lost.removeFirst();
            clock += GAP_NS;
            emit(sink, clock, sentFrames.get(psn).with("ip.id", ++ipId & 0xFFFF).build());
            arrive(sink, psn, ackReqs.get(psn), false);
        }
    }

    private void emit(final Sink sink, final long ts, final byte[] frame) throws IOException {
        sink.frame(ts, frame);
        written++;
    }
}
