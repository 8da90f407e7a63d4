package org.metaroce.mrct.harness.engine;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.metaroce.mrct.harness.cases.CaseDef;
import org.metaroce.mrct.harness.cases.FrameTemplate;
import org.metaroce.mrct.harness.result.Direction;
import org.metaroce.mrct.harness.result.FieldDiff;
import org.metaroce.mrct.harness.spec.Role;
import org.metaroce.mrct.oracle.Finding;
import org.metaroce.mrct.spi.CapturedFrame;
import org.metaroce.mrct.spi.DataPlane;
import org.metaroce.mrct.spi.Endpoints;
import org.metaroce.mrct.wire.DecodedFrame;
import org.metaroce.mrct.wire.FrameDecoder;
import org.metaroce.mrct.wire.Opcode;
import org.metaroce.mrct.wire.Psn;

/**
 * The frames of a running case and the shared clock. Sending records the frame as evidence and lets the device's
 * requester checker learn of what reached the device. Receiving advances the device's clock to its next frame (or the
 * network's next event), decodes the frame, applies the per-frame transmit checks, and then routes it: the device's
 * requests and frames to a peer go to their requester checker and the network, frames the case ignores are recorded,
 * and the rest wait in the inbox until an expectation consumes them.
 */
final class FramePump {
    /** A received frame not yet consumed: as captured, decoded, and its index in the evidence. */
    record Received(CapturedFrame frame, DecodedFrame decoded, int evidence) {
        /** The opcode of a RoCE frame, else the decoder's status: how messages name the frame. */
        String kind() {
            return decoded.isRoce() ? decoded.opcode().name() : String.valueOf(decoded.status());
        }
    }

    private final DataPlane data;
    private final CaseDef def;
    private final Endpoints endpoints;
    private final Names names;
    private final CaseWorld world;
    private final RequesterSteps requesterSteps;
    private final Evidence evidence;
    private final Cursor cursor;
    private final HarnessLateness lateness;
    private final FrameDecoder decoder = new FrameDecoder();
    private final ArrayDeque<Received> inbox = new ArrayDeque<>();
    private final Collection<Received> inboxView = Collections.unmodifiableCollection(inbox);
    /** The highest cumulative ACK the device sent per connection, for MR-ACK-010. */

    /**
     * On a real-time adapter in a requester case: no request the device sends before the case first posts work can be
     * the case's (a frame of an earlier attempt's QP, with the same QPN and PSNs, that reached the harness after the
     * reset); Long.MIN_VALUE where every request counts.
     */
    private long requestsFrom;

    FramePump(final DataPlane data, final CaseDef def, final Endpoints endpoints, final Names names,
              final CaseWorld world, final RequesterSteps requesterSteps, final Evidence evidence,
              final Cursor cursor, final HarnessLateness lateness, final boolean virtualTime) {
        this.requestsFrom = virtualTime || def.role() != Role.REQUESTER ? Long.MIN_VALUE : Long.MAX_VALUE;
        this.data = data;
        this.def = def;
        this.endpoints = endpoints;
        this.names = names;
        this.world = world;
        this.requesterSteps = requesterSteps;
        this.evidence = evidence;
        this.cursor = cursor;
        this.lateness = lateness;
    }

    /** The case posts work on the device now (before the call): the device's requests may come from here on. */
    void workPosted() {
        if (requestsFrom == Long.MAX_VALUE) {
            requestsFrom = data.now();
        }
    }

    /**
     * An expectation of the current step matched the device's frame captured at {@code time}: the step ends there (a
     * window after it never starts before the latest control call returned, {@link Cursor#endedAt}); a frame that came
     * while such a call was under way counts the rest of the call as the harness's lateness
     * ({@link HarnessLateness#workPosted}).
     */
    void matchedAt(final long time) {
        cursor.endedAt(time);
        lateness.workPosted(cursor.index(), time, cursor.lastTime());
    }

    /** The device's clock. */
    long now() {
        return data.now();
    }

    /** The device's clock since the case's start, as the evidence records stamp frames. */
    long caseNow() {
        return evidence.sinceStart(data.now());
    }

    // ---------------------------------------------------------------- frames to the device

    /**
     * Sends a frame of the current step to the device; the step ends (so far) now. On a real-time adapter the
     * harness's own lateness is measured: against when the case meant the frame to leave, and how long the send took.
     */
    void send(final byte[] bytes, final String note) {
        final long intended = cursor.intendedSendTime();
        final long now = data.now();
        final int index = evidence.add(Direction.TO_DUT, now, bytes, cursor.index(), note);
        data.send(bytes);
        lateness.frameSent(cursor.index(), intended, now, data.now());
        cursor.endedAt(now);
        observeToDevice(decoder.decode(ByteBuffer.wrap(bytes), 0, bytes.length).copy(), now, index);
    }

    /**
     * A frame the device received (its evidence index {@code index}): its requester checker (if any) learns of
     * acknowledgements, responses, CNPs, after the requests stamped before {@code now}.
     */
    private void observeToDevice(final DecodedFrame decoded, final long now, final int index) {
        if (!decoded.isRoce()) {
            return;
        }
        final Connection c = world.byDeviceQpn(decoded.bth().destQp());
        if (c != null) {
            c.sent().onToDevice(decoded, c.pmtu);
        }
        if (c != null && (c.requester() != null || def.role() == Role.REQUESTER)) {
            // in a requester case a CNP before the first post_send still sets the QP's rate (DCQCN model)
            requesterSteps.checker(c).toDevice(decoded, now, index);
        }
    }

    /**
     * The network delivers a frame from the peer to the device, due at {@code due} (on virtual time the clock is there;
     * on real time the harness's lateness in delivering it is measured like that of a frame step).
     */
    private void deliverFromPeer(final byte[] bytes, final DecodedFrame decoded, final Connection c,
                                 final String note, final long due) {
        final long now = data.now();
        final int index = evidence.add(Direction.TO_DUT, now, bytes, -1, note);
        data.send(bytes);
        lateness.frameSent(cursor.index(), due, now, data.now());
        observeToDevice(decoded, now, index);
    }

    // ---------------------------------------------------------------- frames from the device

    /**
     * Moves every frame the device emits up to {@code deadline} into the inbox (ignored ones aside), running the
     * network to the peer alongside.
     */
    void pollUntil(final long deadline) {
        while (pump(deadline)) {
            // until nothing is left before the deadline
        }
    }

    /**
     * Waits for the next frame up to {@code deadline}; null when none came. Then, if the adapter's receive path was not
     * looking across the deadline, the harness's lateness records it (a frame stamped later may have come in time).
     */
    Received next(final long deadline) {
        while (inbox.isEmpty()) {
            if (!pump(deadline)) {
                lateness.blindAtDeadline(cursor.index(), data.receivePauseAt(deadline));
                return null;
            }
        }
        return inbox.pollFirst();
    }

    /** The frames waiting for an expectation, oldest first (read-only). */
    Collection<Received> waiting() {
        return inboxView;
    }

    /** Takes the oldest waiting frame, or null. */
    Received takeWaiting() {
        return inbox.pollFirst();
    }


    /**
     * One step of the shared clock: the device runs until its next frame or the network's next event (or {@code
     * deadline}), whichever comes first; then the network and the peer catch up. False when the device reached the
     * deadline with nothing left to do before it.
     */
    private boolean pump(final long deadline) {
        final Network network = world.network();
        final long networkNext = network == null ? Long.MAX_VALUE : network.nextEventTime();
        final CapturedFrame frame = data.poll(Math.min(deadline, networkNext));
        if (frame != null) {
            accept(frame);
            return true;
        }
        if (networkNext > deadline) {
            return false;
        }
        network.runUntil(data.now(), this::deliverFromPeer);
        return true;
    }

    private void accept(final CapturedFrame frame) {
        lateness.stampedAfterPause(cursor.index(), data.receivePauseAt(frame.timestampNanos()));
        final byte[] bytes = frame.unsafeBytes();
        final DecodedFrame decoded = decoder.decode(ByteBuffer.wrap(bytes), 0, bytes.length).copy();
        final Connection owner = decoded.isRoce() ? world.byPeerQpn(decoded.bth().destQp()) : null;
        if (owner != null && decoded.opcode().kind().isRequest() && frame.timestampNanos() < requestsFrom) {
            evidence.add(Direction.FROM_DUT, frame.timestampNanos(), bytes, -1, "ignored: a request stamped before "
                + "the case posted any work (sent before the device's reset)");
            return;
        }
        final List<Finding> findings = LiveOracle.judge(decoded, evidence.size(), owner,
            endpoints.deviceMac(), endpoints.harnessMac());
        if (!findings.isEmpty()) {
            final Finding first = findings.get(0);
            final int index = evidence.add(Direction.FROM_DUT, frame.timestampNanos(), bytes, cursor.index(),
                "violates " + first.rule());
            final List<FieldDiff> diffs = LiveOracle.diffsOf(first.rule(), findings);
            final StepFailure failure = new StepFailure("frame #" + index + " (" + (decoded.isRoce()
                ? decoded.opcode().name() : decoded.status()) + ") breaks " + first.rule() + ": " + diffs.get(0),
                index, diffs, null, evidence.dump(index));
            failure.rule = first.rule();
            throw failure;
        }
        if (owner != null && decoded.opcode().kind().isRequest()) {
            toRequesterChecker(frame, bytes, decoded, owner);
            return;
        }
        if (owner != null && owner.peer) {
            final int index = evidence.add(Direction.FROM_DUT, frame.timestampNanos(), bytes, cursor.index(), "");
            evidence.note(index, cursor.index(), world.network().fromDevice(bytes, decoded, frame.timestampNanos(),
                owner, decoded.opcode() == Opcode.CNP ? 0 : Psn.distance(owner.psnBase(), decoded.bth().psn()), 1));
            return;
        }
        for (final FrameTemplate ignore : def.ignore()) {
            final Connection c = ignore.connection() == null ? null : world.exactly(ignore.connection());
            if (FrameCheck.check(decoded, ignore, c, names.resolver(), world.addresses()).isEmpty()) {
                evidence.add(Direction.FROM_DUT, frame.timestampNanos(), bytes, -1, "ignored");
                return;
            }
        }
        final int index = evidence.add(Direction.FROM_DUT, frame.timestampNanos(), bytes, -1, "unexpected");
        inbox.addLast(new Received(frame, decoded, index));
    }

    /** A request of the device: its checker judges it; to a peer it goes on through the network, else to the inbox. */
    private void toRequesterChecker(final CapturedFrame frame, final byte[] bytes, final DecodedFrame decoded,
                                    final Connection owner) {
        final RequesterChecker checker = requesterSteps.checker(owner);
        final int index = evidence.add(Direction.FROM_DUT, frame.timestampNanos(), bytes, -1,
            owner.peer ? "to the peer" : "unexpected");
        final StepFailure failure = checker.device(decoded, frame.timestampNanos(), index);
        if (failure != null) {
            evidence.note(index, cursor.index(), "violates " + failure.rule);
            throw failure.at(index, evidence.dump(index));
        }
        if (owner.peer) {
            final int psn = Psn.distance(owner.devicePsnBase(), decoded.bth().psn());
            evidence.note(index, cursor.index(), world.network().fromDevice(bytes, decoded, frame.timestampNanos(),
                owner, psn, checker.transmissions(psn)));
            return;
        }
        inbox.addLast(new Received(frame, decoded, index));
    }
}
