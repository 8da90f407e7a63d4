package org.metaroce.mrct.harness.engine;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.ToLongFunction;
import org.metaroce.mrct.harness.cases.Expr;
import org.metaroce.mrct.harness.cases.NetworkSpec;
import org.metaroce.mrct.spi.CapturedFrame;
import org.metaroce.mrct.spi.Peer;
import org.metaroce.mrct.wire.DecodedFrame;
import org.metaroce.mrct.wire.FrameDecoder;
import org.metaroce.mrct.wire.HeaderKind;
import org.metaroce.mrct.wire.Opcode;
import org.metaroce.mrct.wire.Psn;
import org.metaroce.mrct.wire.header.Ipv4Flyweight;
import org.metaroce.mrct.wire.header.Ipv6Flyweight;

/**
 * The harness's network between the device and its peer in requester cases: frames in flight in both directions,
 * ordered by arrival time, with the case's rules applied on the way (drop, duplicate, delay, CE mark, a congested
 * switch port) and the peer run on the same clock. The engine alternates between the device and this network so
 * that neither runs ahead of the other: {@link #nextEventTime()} says when the network next has something to do.
 */
final class Network {
    /** Receives the frames the network delivers to the device. */
    interface Delivery {
        /** Delivers a frame that was due at {@code due} (on real time the harness may deliver it later). */
        void toDevice(byte[] bytes, DecodedFrame decoded, Connection connection, String note, long due);
    }

    private record Flight(long time, long order, boolean toPeer, byte[] bytes, Connection connection, String note) {
    }

    /** A rule of the case with its expressions evaluated. */
    private static final class Rule {
        final Connection connection;
        final Set<Integer> psns;
        final int copy;
        final Set<Opcode> opcodes;
        final long every;
        final long first;
        final long by;
        final long from;
        final long to;
        final int line;
        long matched;

        Rule(final NetworkSpec.Rule spec, final Map<String, Connection> connections, final ToLongFunction<Expr> eval,
             final long start) {
            this.connection = spec.connection() == null ? null : connections.get(spec.connection());
            this.psns = new HashSet<>();
            for (final Expr psn : spec.psns()) {
                psns.add((int) eval.applyAsLong(psn));
            }
            this.copy = spec.copy();
            this.opcodes = new HashSet<>();
            opcodes.addAll(spec.opcodes());
            this.every = spec.every() == null ? 0 : eval.applyAsLong(spec.every());
            this.first = spec.first() == null ? Long.MAX_VALUE : eval.applyAsLong(spec.first());
            this.by = spec.by() == null ? 0 : eval.applyAsLong(spec.by());
            this.from = spec.from() == null ? Long.MIN_VALUE : start + eval.applyAsLong(spec.from());
            this.to = spec.to() == null ? Long.MAX_VALUE : start + eval.applyAsLong(spec.to());
            this.line = spec.line();
        }

        /** Whether the rule takes this frame (counting it when it passes the other members). */
        boolean takes(final Connection c, final int psn, final int transmission, final Opcode opcode,
                      final long time, final boolean dataOnly) {
            if (connection != null && connection != c || time < from || time >= to) {
                return false;
            }
            if (!psns.isEmpty() && !psns.contains(psn) || copy != 0 && copy != transmission) {
                return false;
            }
            if (opcodes.isEmpty() ? dataOnly && !opcode.kind().isRequest() : !opcodes.contains(opcode)) {
                return false;
            }
            matched++;
            return matched <= first && (every == 0 || matched % every == 0);
        }
    }

    private final Peer peer;
    private long start;
    /** The control-plane calls of the steps on real time ({@link #controlCall}), as {began, returned}. */
    private final List<long[]> calls = new ArrayList<>();
    /** The time {@link #calls} took in all, and when the last returned: most frames come after every call. */
    private long callsTotal;
    private long lastReturned = Long.MIN_VALUE;
    private final SplittableRandom random;
    private final FrameDecoder decoder = new FrameDecoder();
    private final PriorityQueue<Flight> queue = new PriorityQueue<>((a, b) -> a.time != b.time
        ? Long.compare(a.time, b.time) : Long.compare(a.order, b.order));
    /** Peer connections by the device's QPN: frames from the peer name only the device's QP. */
    private final Map<Integer, Connection> byDeviceQpn = new java.util.HashMap<>();
    private long order;
    private long latency = 1000;
    private long jitter;
    private List<Rule> drop = List.of();
    private List<Rule> duplicate = List.of();
    private List<Rule> delay = List.of();
    private List<Rule> ce = List.of();
    private List<Rule> dropToDevice = List.of();
    private SwitchPort port;
    private int dropped;
    private int droppedToDevice;

    /**
     * @param peer the peer (owns the harness's end of every peer connection)
     * @param start the case's start time
     * @param seed the case seed (jitter, CE-marking draws)
     */
    /**
     * The case's steps begin at {@code time}: the rules' {@code from} and {@code to} count from there. On virtual time
     * the setup takes no time and this is the case's start; on real time the setup's control-plane calls take
     * milliseconds, which a rule timed in microseconds from the case's start would otherwise lose.
     */
    void stepsBeginAt(final long time) {
        start = time;
        calls.clear();
        callsTotal = 0;
        lastReturned = Long.MIN_VALUE;
    }

    /**
     * Real time only: a control-plane call of the steps the device acts on ran from {@code began} to {@code returned}.
     * The rules' {@code from} and {@code to} count the case's time, in which a call takes none (as on virtual time):
     * RTX-020 loses the first acknowledgement from {@code reorder_time_ns / 2} on, meant to be the cumulative one after
     * the READ's answer; when its first post_send took 7 ms over veth (issue 10), the WRITE's SACK came after that
     * moment counted on the adapter's clock, was the one lost, and the WRITE completed early (MR-CMP-012).
     */
    void controlCall(final long began, final long returned) {
        if (returned > began) {
            calls.add(new long[] {began, returned});
            callsTotal += returned - began;
            lastReturned = Math.max(lastReturned, returned);
        }
    }

    /**
     * The case's time of the adapter's {@code time}: less the part of every control call of the steps before it (a
     * moment inside a call is the call's beginning).
     */
    long caseTime(final long time) {
        if (time >= lastReturned) {
            return time - callsTotal;
        }
        long out = time;
        for (final long[] call : calls) {
            if (time > call[0]) {
                out -= Math.min(time, call[1]) - call[0];
            }
        }
        return out;
    }

    Network(final Peer peer, final long start, final long seed) {
        this.peer = peer;
        this.start = start;
        this.random = new SplittableRandom(seed ^ 0x5DEECE66DL);
    }

    /** A connection whose harness end is the peer. */
    void add(final Connection connection) {
        byDeviceQpn.put(connection.deviceQpn, connection);
    }

    /** Replaces the rules (a {@code network} step). */
    void configure(final NetworkSpec spec, final Map<String, Connection> connections, final ToLongFunction<Expr> eval) {
        latency = spec.latency() == null ? 1000 : eval.applyAsLong(spec.latency());
        jitter = spec.jitter() == null ? 0 : eval.applyAsLong(spec.jitter());
        if (latency < 0 || jitter < 0) {
            throw new IllegalArgumentException("network: latency and jitter must not be negative");
        }
        drop = rules(spec.drop(), connections, eval);
        duplicate = rules(spec.duplicate(), connections, eval);
        delay = rules(spec.delay(), connections, eval);
        ce = rules(spec.ce(), connections, eval);
        dropToDevice = rules(spec.dropToDevice(), connections, eval);
        if (spec.switchPort() == null) {
            port = null;
            return;
        }
        final NetworkSpec.SwitchSpec s = spec.switchPort();
        final List<SwitchPort.Load> loads = new ArrayList<>();
        for (final NetworkSpec.Background load : s.background()) {
            loads.add(new SwitchPort.Load(eval.applyAsLong(load.mbps()),
                start + (load.from() == null ? 0 : eval.applyAsLong(load.from())),
                load.to() == null ? Long.MAX_VALUE : start + eval.applyAsLong(load.to())));
        }
        port = new SwitchPort(eval.applyAsLong(s.rateMbps()), eval.applyAsLong(s.kminBytes()),
            eval.applyAsLong(s.kmaxBytes()), eval.applyAsLong(s.pmaxPercent()) / 100.0,
            s.bufferBytes() == null ? Long.MAX_VALUE : eval.applyAsLong(s.bufferBytes()), loads,
            start, random.split());
    }

    private List<Rule> rules(final List<NetworkSpec.Rule> specs, final Map<String, Connection> connections,
                             final ToLongFunction<Expr> eval) {
        final List<Rule> out = new ArrayList<>();
        for (final NetworkSpec.Rule spec : specs) {
            out.add(new Rule(spec, connections, eval, start));
        }
        return out;
    }

    /** When the network next delivers a frame or the peer next acts; Long.MAX_VALUE if never. */
    long nextEventTime() {
        final long flight = queue.isEmpty() ? Long.MAX_VALUE : queue.peek().time;
        return Math.min(flight, peer.nextEventTime());
    }

    /**
     * A frame the device sent at {@code time} to the peer's QP of {@code c}; {@code psn} is its PSN relative to the
     * device's request space and {@code transmission} which transmission of that PSN it is (1 the first). Returns
     * what the network did with it, for the evidence.
     */
    String fromDevice(final byte[] bytes, final DecodedFrame f, final long time, final Connection c, final int psn,
                      final int transmission) {
        final Opcode opcode = f.opcode();
        final long at = caseTime(time);
        for (final Rule rule : drop) {
            if (rule.takes(c, psn, transmission, opcode, at, true)) {
                dropped++;
                return "to the peer: lost (network rule, line " + rule.line + ")";
            }
        }
        long when = time + latency + (jitter > 0 ? random.nextLong(jitter) : 0);
        String note = "to the peer";
        for (final Rule rule : delay) {
            if (rule.takes(c, psn, transmission, opcode, at, true)) {
                when += rule.by;
                note += ", delayed " + CaseRun.nanos(rule.by);
            }
        }
        byte[] out = bytes;
        for (final Rule rule : ce) {
            if (rule.takes(c, psn, transmission, opcode, at, true)) {
                out = markCe(out, f);
                note += ", CE-marked";
                break;
            }
        }
        if (port != null) {
            final SwitchPort.Fate fate = port.enqueue(time, f.frameLength() + 4);
            if (fate.dropped()) {
                dropped++;
                return "to the peer: lost (switch buffer full)";
            }
            if (fate.marked() && out == bytes) {
                out = markCe(out, f);
                note += ", CE-marked by the switch";
            }
            when += fate.departure() - time;
        }
        schedule(when, true, out, c, note);
        for (final Rule rule : duplicate) {
            if (rule.takes(c, psn, transmission, opcode, at, true)) {
                schedule(when + 1, true, out, c, note + " (duplicate)");
                note += ", duplicated";
                break;
            }
        }
        return note;
    }

    private void schedule(final long time, final boolean toPeer, final byte[] bytes, final Connection c,
                          final String note) {
        queue.add(new Flight(time, order++, toPeer, bytes, c, note));
    }

    /**
     * Runs the network and the peer up to {@code now}: frames due at the peer reach it, the peer's answers start
     * their way back, and frames due at the device are handed to {@code delivery} (the device's clock is at
     * {@code now}).
     */
    void runUntil(final long now, final Delivery delivery) {
        while (true) {
            final Flight head = queue.peek();
            final long peerNext = peer.nextEventTime();
            if ((head == null || head.time > now) && peerNext > now) {
                return;
            }
            if (head != null && head.time <= peerNext && head.time <= now) {
                queue.poll();
                if (head.toPeer) {
                    peer.receive(head.bytes, head.time);
                } else {
                    final DecodedFrame decoded = decoder.decode(ByteBuffer.wrap(head.bytes), 0, head.bytes.length)
                        .copy();
                    delivery.toDevice(head.bytes, decoded, head.connection, head.note, head.time);
                }
                continue;
            }
            final CapturedFrame frame = peer.poll(Math.min(now, peerNext));
            if (frame == null) {
                if (peer.nextEventTime() <= Math.min(now, peerNext)) {
                    throw new IllegalStateException("the peer reports an event at " + peerNext + " but does nothing");
                }
                continue;
            }
            fromPeer(frame);
        }
    }

    private void fromPeer(final CapturedFrame frame) {
        final byte[] bytes = frame.unsafeBytes();
        final DecodedFrame f = decoder.decode(ByteBuffer.wrap(bytes), 0, bytes.length);
        final Connection c = f.isRoce() ? byDeviceQpn.get(f.bth().destQp()) : null;
        if (c == null) {
            return;
        }
        final int psn = f.opcode() == Opcode.CNP ? 0 : Psn.distance(c.devicePsnBase(), f.bth().psn());
        for (final Rule rule : dropToDevice) {
            if (rule.takes(c, psn, 1, f.opcode(), caseTime(frame.timestampNanos()), false)) {
                droppedToDevice++;
                return;
            }
        }
        schedule(frame.timestampNanos() + latency, false, bytes.clone(), c, "from the peer");
    }

    /** A copy of {@code bytes} with ip.ecn CE (the IPv4 header checksum follows; the ICRC does not cover ECN). */
    static byte[] markCe(final byte[] bytes, final DecodedFrame f) {
        final byte[] out = bytes.clone();
        final ByteBuffer buffer = ByteBuffer.wrap(out);
        if (f.has(HeaderKind.IPV4)) {
            final Ipv4Flyweight ip = new Ipv4Flyweight().wrap(buffer, f.offset(HeaderKind.IPV4));
            ip.tos(ip.dscp(), 3);
            ip.checksum(ip.computeChecksum());
        } else if (f.has(HeaderKind.IPV6)) {
            final Ipv6Flyweight ip = new Ipv6Flyweight().wrap(buffer, f.offset(HeaderKind.IPV6));
            ip.versionClassFlow(6, ip.dscp(), 3, ip.flowLabel());
        }
        return out;
    }

    SwitchPort port() {
        return port;
    }

    int dropped() {
        return dropped;
    }

    int droppedToDevice() {
        return droppedToDevice;
    }
}
