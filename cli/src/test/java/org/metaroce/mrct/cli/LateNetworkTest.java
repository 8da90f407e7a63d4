package org.metaroce.mrct.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.time.Clock;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.metaroce.mrct.harness.cases.CaseLoader;
import org.metaroce.mrct.harness.engine.RunContext;
import org.metaroce.mrct.harness.engine.Runner;
import org.metaroce.mrct.harness.profile.DeviceProfile;
import org.metaroce.mrct.harness.result.CaseResult;
import org.metaroce.mrct.harness.result.Direction;
import org.metaroce.mrct.harness.result.FrameRecord;
import org.metaroce.mrct.harness.result.Verdict;
import org.metaroce.mrct.harness.spec.Specification;
import org.metaroce.mrct.reference.ReferenceAdapter;
import org.metaroce.mrct.reference.ReferencePeer;
import org.metaroce.mrct.spi.CapturedFrame;
import org.metaroce.mrct.wire.DecodedFrame;
import org.metaroce.mrct.wire.FrameDecoder;

/**
 * The harness plays the network late on a real-time adapter. In LEG-008-go-back-n-on-sequence-nak over UDP beside two
 * CPU hogs (kept run udp-requester-1796224417497), the device (a software NIC, one request every 2.4 us, with pauses of
 * 65 us) sent PSNs 8 to 19 at 5.277-5.304 ms; the NAK 0x60 for PSN 5, due about 5.25 ms, left the harness only at
 * 5.76 ms. The UDP reader had stamped those requests on arrival, but the engine took them after it had sent the NAK,
 * and the requester checker, fed in that order, believed that the device had sent PSNs up to 7 when it took the NAK:
 * the go-back it asked for ended at 7, and the device's right resend of PSN 8 read as a timeout's that did not start at
 * una (a false MR-LEG-009, "PSN 8 is sent again with no NAK 0x60 asking for it"). The device is the reference NIC on
 * its virtual clock presented as a real-time adapter: its requests reach the harness one every {@link #GAP} (the
 * pace of a software device, so that some are stamped after the NAK was due) and the harness notices each deadline
 * {@link #LATE} after it passed (within the run's tolerance), so the outcome is exact.
 */
class LateNetworkTest {
    private static final Specification SPEC = Specification.bundled();
    private static final long US = 1_000;
    private static final long MS = 1_000_000;
    private static final String CASE = "LEG-008-go-back-n-on-sequence-nak";
    /** The kept run's tolerance (the socket end-to-end tests' 2 ms): the harness's lateness stays below it. */
    private static final long TOLERANCE = 2 * MS;
    private static final long LATE = 500 * US;
    /** Above the case's round trip of 40 us over two packets: PSN 8 is stamped after the NAK for PSN 5 was due. */
    private static final long GAP = 25 * US;

    /**
     * The reference NIC whose frames reach the harness at a software device's pace, one every {@code gap} at most
     * (stamped then, as the UDP reader stamps them), with a harness that notices a deadline {@code late} after it: when
     * nothing came by then, the device's clock runs on meanwhile and the frames it sent wait, stamped when they came.
     * With {@code spurious}, after its go-back resend of {@code spuriousAfter} the device also sends PSN
     * {@code spuriousPsn} again at once (a copy of its go-back resend), as a device that resends without cause would.
     */
    private static final class SlowSoftwareDevice extends RealTimeReference {
        final long gap;
        final long late;
        final boolean spurious;
        final ArrayDeque<CapturedFrame> held = new ArrayDeque<>();
        final FrameDecoder decoder = new FrameDecoder();
        long lastStamp = Long.MIN_VALUE;
        int latePolls;
        int basePsn = -1;
        byte[] resentCopy;
        boolean spuriousSent;
        final int spuriousPsn = 8;
        final int spuriousAfter = 19;

        SlowSoftwareDevice(final ReferenceAdapter inner, final long gap, final long late, final boolean spurious) {
            super(inner);
            this.gap = gap;
            this.late = late;
            this.spurious = spurious;
        }

        @Override
        public void beginCase(final String caseId) {
            inner.beginCase(caseId);
            held.clear();
            lastStamp = Long.MIN_VALUE;
            basePsn = -1;
            resentCopy = null;
            spuriousSent = false;
        }

        @Override
        public CapturedFrame poll(final long deadlineNanos) {
            while (true) {
                final CapturedFrame head = held.peekFirst();
                if (head != null && head.timestampNanos() <= deadlineNanos) {
                    catchUp(head.timestampNanos());
                    return held.pollFirst();
                }
                final CapturedFrame out = inner.dataPlane().poll(deadlineNanos);
                if (out != null) {
                    hold(out);
                    continue;
                }
                latePolls++;
                catchUp(deadlineNanos + late);
                return null;
            }
        }

        /** The device's clock runs to {@code time}; what it sends meanwhile waits its turn. */
        private void catchUp(final long time) {
            CapturedFrame out;
            while ((out = inner.dataPlane().poll(time)) != null) {
                hold(out);
            }
        }

        private void hold(final CapturedFrame frame) {
            final byte[] bytes = frame.unsafeBytes();
            stamp(bytes, frame.timestampNanos());
            if (!spurious || spuriousSent) {
                return;
            }
            final DecodedFrame f = decoder.decode(ByteBuffer.wrap(bytes), 0, bytes.length);
            if (!f.isRoce() || !f.opcode().kind().isRequest()) {
                return;
            }
            if (basePsn < 0) {
                basePsn = f.bth().psn();
            }
            final int psn = f.bth().psn() - basePsn;
            if (psn == spuriousPsn && f.bth().ackReq()) {
                resentCopy = bytes.clone(); // the go-back's resend (a first transmission of a MIDDLE has no AckReq)
            } else if (psn == spuriousAfter && f.bth().ackReq() && resentCopy != null) {
                spuriousSent = true;
                stamp(resentCopy, frame.timestampNanos());
            }
        }

        private void stamp(final byte[] bytes, final long sent) {
            lastStamp = lastStamp == Long.MIN_VALUE ? sent : Math.max(sent, lastStamp + gap);
            held.addLast(new CapturedFrame(bytes, lastStamp));
        }

        @Override
        public String name() {
            return "slow software device";
        }
    }

    private static CaseResult run(final SlowSoftwareDevice adapter) throws Exception {
        final Runner.Planned planned = Runner.plan(new CaseLoader(SPEC).loadBundled()).stream()
            .filter(p -> p.id().equals(CASE)).findFirst().orElseThrow();
        final CaseResult result = new Runner(new RunContext(adapter, SPEC, ReferenceServer.profile(null, SPEC), 1,
            false, 2 * MS, TOLERANCE, 0, ReferencePeer.FACTORY), List.of(), Clock.systemUTC()).runOne(planned);
        assertThat(adapter.latePolls).as("deadlines the harness noticed late").isPositive();
        return result;
    }

    private static SlowSoftwareDevice device(final long gap, final long late, final boolean spurious)
        throws Exception {
        final DeviceProfile profile = ReferenceServer.profile(null, SPEC);
        return new SlowSoftwareDevice(ReferenceAdapter.fromProfile(profile, SPEC, Set.of()), gap, late, spurious);
    }

    @Test
    void requestsTheDeviceSentBeforeALateNakAreJudgedBeforeIt() throws Exception {
        try (SlowSoftwareDevice adapter = device(GAP, LATE, false)) {
            final CaseResult result = run(adapter);
            assertThat(result.verdict()).as(result.reason()).isEqualTo(Verdict.PASS);
        }
    }

    @Test
    void aDeviceThatResendsWithoutCauseStillFailsMrLeg009() throws Exception {
        try (SlowSoftwareDevice adapter = device(GAP, LATE, true)) {
            final CaseResult result = run(adapter);
            assertThat(adapter.spuriousSent).as("the spurious resend was sent").isTrue();
            assertThat(result.verdict()).as(result.reason()).isEqualTo(Verdict.FAIL);
            assertThat(result.reason()).startsWith("MR-LEG-009")
                .contains("PSN 8 is sent again with no NAK 0x60 asking for it");
            // the frame blamed is the third transmission of PSN 8 (the spurious one), not the go-back's resend
            final int failed = result.failure().frame();
            final Object psn = bth(result.evidence().get(failed)).get("psn");
            assertThat(result.evidence().stream().filter(r -> r.index() <= failed
                && r.direction() == Direction.FROM_DUT && psn.equals(bth(r).get("psn"))).count()).isEqualTo(3);
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> bth(final FrameRecord r) {
        return (Map<String, Object>) r.decoded().getOrDefault("bth", Map.of());
    }

    @Test
    void requestsThatCrossedAPunctualNakOnTheLinkArePartOfItsGoBack() throws Exception {
        // the same pace with a punctual harness: the NAK leaves when due, before the harness sees PSN 8, which the
        // device sent before it took the NAK (they crossed on the link): the go-back is 5 to 19, and PSN 8's resend
        // is the NAK's (before the oracle's fix: "PSN 8 is sent again with no NAK 0x60 asking for it, and it is not
        // una", the kept run's very message)
        try (SlowSoftwareDevice adapter = device(GAP, 0, false)) {
            final CaseResult result = run(adapter);
            assertThat(result.verdict()).as(result.reason()).isEqualTo(Verdict.PASS);
        }
    }
}
