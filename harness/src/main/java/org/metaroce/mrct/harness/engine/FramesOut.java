package org.metaroce.mrct.harness.engine;

import java.util.ArrayList;
import java.util.List;
import org.metaroce.mrct.harness.cases.FlowSpec;
import org.metaroce.mrct.harness.cases.MessageSpec;
import org.metaroce.mrct.harness.cases.Step;
import org.metaroce.mrct.harness.result.Direction;

/**
 * The steps that send frames to the device: {@code send} (one frame), {@code message} (a segmented message, possibly
 * reordered, with drops and gaps), and {@code flow} (interleaved messages whose every answer is checked against the
 * responder's invariants as it arrives).
 */
final class FramesOut {
    private final Names names;
    private final CaseWorld world;
    private final Traffic traffic;
    private final FramePump pump;
    private final Evidence evidence;
    private final Cursor cursor;
    private final Timing timing;

    FramesOut(final Names names, final CaseWorld world, final Traffic traffic, final FramePump pump,
              final Evidence evidence, final Cursor cursor, final Timing timing) {
        this.names = names;
        this.world = world;
        this.traffic = traffic;
        this.pump = pump;
        this.evidence = evidence;
        this.cursor = cursor;
        this.timing = timing;
    }

    void send(final Step.Send s) {
        final Connection c = world.connection(s.packet().connection());
        final Traffic.Outgoing out = traffic.packet(s.packet(), c, world.regions(), names.resolver());
        pump.send(out.bytes(), "sent");
    }

    /** Sends the message's packets in their order; dropped ones are recorded as evidence, never sent. */
    void message(final Step.Message m) {
        final Connection c = world.connection(m.message().connection());
        final long gap = m.message().gap() == null ? 0 : names.eval(m.message().gap());
        boolean first = true;
        for (final Traffic.Outgoing out : traffic.message(m.message(), c, world.regions(), names.resolver())) {
            if (out.sent()) {
                if (!first && gap > 0) {
                    final long next = pump.now() + gap;
                    pump.pollUntil(next);
                    // the case means the packet to leave at the gap's end: waiting for it is not the harness's lateness
                    cursor.endedAt(next);
                }
                first = false;
                pump.send(out.bytes(), out.note());
            } else {
                evidence.add(Direction.TO_DUT, pump.now(), out.bytes(), cursor.index(), out.note());
            }
        }
    }

    /**
     * Sends the flow's packets, checking every frame from the device against the flow's invariants as it arrives, then
     * waits for the settle time and checks what a conforming responder must have sent by then.
     */
    void flow(final Step.Flow step) {
        final FlowSpec spec = step.flow();
        final Connection c = world.connection(spec.connection());
        final List<Traffic.Prepared> messages = new ArrayList<>();
        for (final MessageSpec message : spec.messages()) {
            messages.add(traffic.prepare(message, c, world.regions(), names.resolver()));
        }
        final long cnpDelay = names.bound("cnp_delay_max_ns", 10_000L);
        final FlowChecker checker = new FlowChecker(c, names.bound("cnp_interval_ns", 50_000L), cnpDelay,
            timing.tolerance(cnpDelay));
        boolean lastAckReq = false;
        for (final FlowSpec.Packet packet : spec.packets()) {
            final Traffic.Prepared prepared = messages.get(packet.message());
            lastAckReq = packet.ackReq() || prepared.isLast(packet.packet());
            for (int copy = 0; copy < (packet.duplicate() ? 2 : 1); copy++) {
                final Traffic.Outgoing out = prepared.emit(c, packet.packet(), packet.ce(), lastAckReq,
                    copy == 0 ? "sent" : "sent (duplicate)");
                pump.send(out.bytes(), out.note() + " " + packet.text());
                if (packet.ce()) {
                    checker.ceSent(pump.now());
                }
                checkFlowFrames(checker, pump.now());
            }
        }
        final long settle = spec.settle() != null ? names.eval(spec.settle())
            : names.bound("ack_delay_max_ns", 8000L);
        final long until = pump.now() + settle + timing.tolerance(settle);
        checkFlowFrames(checker, until);
        cursor.endedAt(until);
        final StepFailure failure = checker.finish(lastAckReq, until);
        if (failure != null) {
            throw failure;
        }
    }

    /** Takes every frame due by {@code until} and checks it against the flow's invariants. */
    private void checkFlowFrames(final FlowChecker checker, final long until) {
        pump.pollUntil(until);
        FramePump.Received received;
        while ((received = pump.takeWaiting()) != null) {
            evidence.note(received.evidence(), cursor.index(), "checked by the flow's invariants");
            final StepFailure failure = checker.check(received.decoded(), received.frame().timestampNanos(),
                received.evidence());
            if (failure != null) {
                throw failure.at(received.evidence(), evidence.dump(received.evidence()));
            }
        }
    }
}
