package org.metaroce.mrct.reference;

import java.nio.ByteBuffer;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.Predicate;
import org.metaroce.mrct.spi.Access;
import org.metaroce.mrct.spi.CapturedFrame;
import org.metaroce.mrct.spi.ControlPlane;
import org.metaroce.mrct.spi.QpAttribute;
import org.metaroce.mrct.spi.QpAttributes;
import org.metaroce.mrct.spi.QpState;
import org.metaroce.mrct.wire.DecodedFrame;
import org.metaroce.mrct.wire.FrameDecoder;

/**
 * Two reference NICs joined by a link on one virtual clock: a requester ({@link ReferenceAdapter}, at the device's
 * addresses) and a responder ({@link ReferencePeer}, at the harness's), with a one-way latency, optional seeded jitter
 * (which reorders) and a predicate that loses frames from the requester. For the reference's own tests and for
 * benchmarks of the whole loop (pacing, acknowledgements, selective retransmission); the suite's cases go through the
 * engine's network instead, which also checks every frame.
 */
public final class ReferenceLink implements AutoCloseable {
    /** One connected QP pair. */
    public record Pair(int requesterQpn, int responderQpn, int requesterPd, int responderPd) {
    }

    private record InFlight(long time, long order, boolean toResponder, byte[] bytes) {
    }

    private final ReferenceAdapter requester;
    private final ReferencePeer responder;
    private final long latencyNs;
    private final PriorityQueue<InFlight> queue = new PriorityQueue<>((a, b) -> a.time != b.time
        ? Long.compare(a.time, b.time) : Long.compare(a.order, b.order));
    private final FrameDecoder decoder = new FrameDecoder();
    private Predicate<DecodedFrame> lose = f -> false;
    private SplittableRandom jitter;
    private long jitterNs;
    private long order;
    private long sent;

    /** A link with this one-way latency; both NICs claim every PICS item and use the specification's defaults. */
    public ReferenceLink(final long latencyNs, final Set<Fault> requesterFaults) {
        final Set<String> pics = Set.of("atomics", "send-with-invalidate", "multipath-spraying", "legacy-rocev2");
        this.requester = new ReferenceAdapter(Map.of(), pics, requesterFaults);
        this.responder = new ReferencePeer(ReferenceAdapter.ENDPOINTS, Map.of(), pics);
        this.latencyNs = latencyNs;
    }

    /** Frames from the requester for which {@code predicate} holds are lost (it sees each transmission once). */
    public ReferenceLink losing(final Predicate<DecodedFrame> predicate) {
        this.lose = predicate;
        return this;
    }

    /** Each requester frame is delayed by a further seeded random time in [0, maxNs). */
    public ReferenceLink jitter(final long maxNs, final long seed) {
        this.jitterNs = maxNs;
        this.jitter = new SplittableRandom(seed);
        return this;
    }

    /** The requester's control plane. */
    public ControlPlane requester() {
        return requester.controlPlane();
    }

    /** The responder's control plane. */
    public ControlPlane responder() {
        return responder.control();
    }

    /** Frames the requester has sent so far. */
    public long sent() {
        return sent;
    }

    /**
     * Connects a new QP pair with every access right: the requester's sq_psn and the responder's rq_psn are
     * {@code psn}, and both QPs end in RTS.
     */
    public Pair connect(final int psn, final QpAttributes extra) {
        final ControlPlane d = requester();
        final ControlPlane p = responder();
        final int requesterPd = d.allocatePd();
        final int responderPd = p.allocatePd();
        final Set<Access> all = Set.of(Access.REMOTE_WRITE, Access.REMOTE_READ, Access.REMOTE_ATOMIC);
        final int responderQpn = p.createQp(QpAttributes.empty().with(QpAttribute.PD, responderPd)
            .with(QpAttribute.DEST_IP, ReferenceAdapter.ENDPOINTS.deviceIpv4())
            .with(QpAttribute.DEST_MAC, ReferenceAdapter.ENDPOINTS.deviceMac()).with(QpAttribute.RQ_PSN, psn)
            .with(QpAttribute.SQ_PSN, 0).with(QpAttribute.ACCESS, all).with(extra));
        final int requesterQpn = d.createQp(QpAttributes.empty().with(QpAttribute.PD, requesterPd)
            .with(QpAttribute.DEST_IP, ReferenceAdapter.ENDPOINTS.harnessIpv4())
            .with(QpAttribute.DEST_MAC, ReferenceAdapter.ENDPOINTS.harnessMac())
            .with(QpAttribute.DEST_QPN, responderQpn).with(QpAttribute.SQ_PSN, psn).with(QpAttribute.RQ_PSN, 0)
            .with(QpAttribute.ACCESS, all).with(extra));
        p.modifyQp(responderQpn, QpState.INIT, QpAttributes.empty());
        p.modifyQp(responderQpn, QpState.RTR, QpAttributes.empty().with(QpAttribute.DEST_QPN, requesterQpn));
        p.modifyQp(responderQpn, QpState.RTS, QpAttributes.empty());
        d.modifyQp(requesterQpn, QpState.INIT, QpAttributes.empty());
        d.modifyQp(requesterQpn, QpState.RTR, QpAttributes.empty());
        d.modifyQp(requesterQpn, QpState.RTS, QpAttributes.empty());
        return new Pair(requesterQpn, responderQpn, requesterPd, responderPd);
    }

    /** The shared clock (the requester's). */
    public long now() {
        return requester.dataPlane().now();
    }

    /** Runs both NICs and the link until {@code until} on the shared virtual clock. */
    public void run(final long until) {
        while (true) {
            final long horizon = Math.min(until, Math.min(responder.nextEventTime(),
                queue.isEmpty() ? Long.MAX_VALUE : queue.peek().time));
            final CapturedFrame fromRequester = requester.dataPlane().poll(horizon);
            if (fromRequester != null) {
                sent++;
                final byte[] bytes = fromRequester.unsafeBytes();
                if (!lose.test(decoder.decode(ByteBuffer.wrap(bytes), 0, bytes.length))) {
                    final long delay = latencyNs + (jitter == null ? 0 : jitter.nextLong(jitterNs));
                    queue.add(new InFlight(fromRequester.timestampNanos() + delay, order++, true, bytes));
                }
                continue;
            }
            final long now = requester.dataPlane().now();
            while (!queue.isEmpty() && queue.peek().time <= now) {
                final InFlight f = queue.poll();
                if (f.toResponder) {
                    responder.receive(f.bytes, f.time);
                } else {
                    requester.dataPlane().send(f.bytes);
                }
            }
            CapturedFrame fromResponder;
            while ((fromResponder = responder.poll(now)) != null) {
                queue.add(new InFlight(fromResponder.timestampNanos() + latencyNs, order++, false,
                    fromResponder.unsafeBytes()));
            }
            if (now >= until && (queue.isEmpty() || queue.peek().time > until)) {
                return;
            }
        }
    }

    @Override
    public void close() {
        requester.close();
        responder.close();
    }
}
