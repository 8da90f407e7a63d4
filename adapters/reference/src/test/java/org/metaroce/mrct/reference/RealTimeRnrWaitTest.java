package org.metaroce.mrct.reference;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.metaroce.mrct.spi.Access;
import org.metaroce.mrct.spi.ControlPlane;
import org.metaroce.mrct.spi.MemoryRegion;
import org.metaroce.mrct.spi.QpAttribute;
import org.metaroce.mrct.spi.QpAttributes;
import org.metaroce.mrct.spi.QpState;
import org.metaroce.mrct.spi.SendWqe;
import org.metaroce.mrct.spi.WorkOpcode;
import org.metaroce.mrct.wire.AethSyndrome;
import org.metaroce.mrct.wire.DecodedFrame;
import org.metaroce.mrct.wire.FrameDecoder;
import org.metaroce.mrct.wire.Opcode;

/**
 * Issue 10: does the reference behind {@code mrct serve} (its {@link RealTimeDevice}) end an RNR wait by itself, or
 * only when something else wakes its thread? Over veth, RTX-012's resend after a 10 us wait came 1.54 ms after the
 * harness's next control call began, which looked as if the call had released it. Two real-time reference NICs face
 * each other: the requester sends a SEND that the responder, with no receive posted, answers with an RNR NAK of its
 * min_rnr_timer (code 1, 10 us), again and again (rnr_retry 7: unlimited). After the one post_send nobody calls either
 * control plane, so every resend after the first NAK is the end of a wait the device kept by itself. No timing is
 * judged: the wait for the frames is a hang guard only.
 */
class RealTimeRnrWaitTest {
    private static final String REQUESTER_IP = "198.51.100.2";
    private static final String RESPONDER_IP = "198.51.100.1";
    private static final long REQUESTER_MAC = 0x02_00_00_00_00_0DL;
    private static final long RESPONDER_MAC = 0x02_00_00_00_00_01L;

    @Test
    void anRnrWaitEndsWithoutAControlCall() throws Exception {
        final FrameDecoder requesterFrames = new FrameDecoder();
        final FrameDecoder responderFrames = new FrameDecoder();
        // the SENDs after the responder's first RNR NAK (each needs the end of a wait: the retransmission timer stops
        // for it, and is 500 ms besides, so that the cold responder's first answer, 70 ms here, comes before it: with
        // the default 100 us timers the requester gave up, retry_cnt spent, before the first NAK)
        final AtomicInteger sends = new AtomicInteger();
        final AtomicInteger rnrNaks = new AtomicInteger();
        final AtomicInteger others = new AtomicInteger();
        final AtomicReference<RealTimeDevice> requesterRef = new AtomicReference<>();
        final AtomicReference<RealTimeDevice> responderRef = new AtomicReference<>();
        try (RealTimeDevice requester = new RealTimeDevice(Map.of(), Set.of(), Set.of(), REQUESTER_MAC, REQUESTER_IP,
                 null, frame -> {
                     final DecodedFrame f = requesterFrames.decode(ByteBuffer.wrap(frame), 0, frame.length);
                     if (f.isRoce() && f.opcode() == Opcode.SEND_ONLY && f.bth().psn() == 0) {
                         if (rnrNaks.get() > 0) {
                             sends.incrementAndGet();
                         }
                     } else {
                         others.incrementAndGet();
                     }
                     responderRef.get().receive(frame);
                 });
             RealTimeDevice responder = new RealTimeDevice(Map.of(), Set.of(), Set.of(), RESPONDER_MAC, RESPONDER_IP,
                 null, frame -> {
                     final DecodedFrame f = responderFrames.decode(ByteBuffer.wrap(frame), 0, frame.length);
                     (f.isRoce() && f.opcode() == Opcode.ACKNOWLEDGE && f.aeth().syndrome().type() == AethSyndrome.Type.RNR_NAK
                         ? rnrNaks : others).incrementAndGet();
                     requesterRef.get().receive(frame);
                 })) {
            requesterRef.set(requester);
            responderRef.set(responder);
            requester.start();
            responder.start();
            final ControlPlane d = requester.controlPlane();
            final ControlPlane p = responder.controlPlane();
            final int requesterPd = d.allocatePd();
            final int responderPd = p.allocatePd();
            final int responderQpn = p.createQp(QpAttributes.empty().with(QpAttribute.PD, responderPd)
                .with(QpAttribute.DEST_IP, REQUESTER_IP).with(QpAttribute.DEST_MAC, REQUESTER_MAC)
                .with(QpAttribute.RQ_PSN, 0).with(QpAttribute.SQ_PSN, 0));
            final int requesterQpn = d.createQp(QpAttributes.empty().with(QpAttribute.PD, requesterPd)
                .with(QpAttribute.DEST_IP, RESPONDER_IP).with(QpAttribute.DEST_MAC, RESPONDER_MAC)
                .with(QpAttribute.DEST_QPN, responderQpn).with(QpAttribute.SQ_PSN, 0).with(QpAttribute.RQ_PSN, 0)
                .with(QpAttribute.RNR_RETRY, 7).with(QpAttribute.RTO_LOW_NS, 500_000_000L)
                .with(QpAttribute.RTO_HIGH_NS, 1_000_000_000L));
            p.modifyQp(responderQpn, QpState.INIT, QpAttributes.empty());
            p.modifyQp(responderQpn, QpState.RTR, QpAttributes.empty().with(QpAttribute.DEST_QPN, requesterQpn));
            p.modifyQp(responderQpn, QpState.RTS, QpAttributes.empty());
            d.modifyQp(requesterQpn, QpState.INIT, QpAttributes.empty());
            d.modifyQp(requesterQpn, QpState.RTR, QpAttributes.empty());
            d.modifyQp(requesterQpn, QpState.RTS, QpAttributes.empty());
            final MemoryRegion local = d.registerMr(requesterPd, 4096, Set.of(Access.LOCAL_WRITE));
            d.postSend(requesterQpn, new SendWqe(1, WorkOpcode.SEND, local.va(), 64, local.lkey(), 0, 0, 0, 0, 0,
                true));
            // the last control call: from here on only the two devices' own timers and frames act
            final long guard = System.nanoTime() + 30_000_000_000L;
            while (sends.get() < 5 && System.nanoTime() < guard) {
                Thread.sleep(1);
            }
            assertThat(rnrNaks.get()).as("the responder answers every SEND with an RNR NAK").isPositive();
            assertThat(sends.get()).as("resends of the SEND after an RNR NAK, each at the end of a wait, no control "
                + "call made after the post_send (frames of other kinds: %d)", others.get()).isGreaterThanOrEqualTo(5);
            assertThat(d.queryQp(requesterQpn)).isEqualTo(QpState.RTS);
            assertThat(requester.failures()).as(String.valueOf(requester.lastFailure())).isZero();
            assertThat(responder.failures()).as(String.valueOf(responder.lastFailure())).isZero();
        }
    }
}
