package org.metaroce.mrct.replay.internal;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.metaroce.mrct.spi.CapturedFrame;
import org.metaroce.mrct.spi.EvidenceUnavailableException;

/**
 * One case answered from its recording, on a virtual clock.
 *
 * <p>Data plane: each frame the harness sends must be the next frame the recording says it sent to the device (frames
 * it recorded as dropped by itself excepted), byte for byte. A frame from the device is handed out by {@link #poll}
 * once its turn has come, that is once the harness has sent every frame and made every control call recorded before
 * it, and once the clock may reach its recorded time (relative to the case's start); the clock then moves to that
 * time, or to the deadline when no frame is due, as the reference NIC's virtual clock does.
 *
 * <p>Control plane: each call must be the next recorded one, the same operation with the same arguments; it gets the
 * recorded answer, or throws the recorded error.
 *
 * <p>Anything else means the harness and the recording disagree, so the recording cannot answer the case:
 * {@link EvidenceUnavailableException}, which makes the case INCONCLUSIVE with its message.
 */
public final class CaseReplay {
    /** The replay's clock, shared by every case of a replay (it never goes back). */
    public static final class Clock {
        private long now;

        public long now() {
            return now;
        }

        /** Moves the clock to {@code time}, never back. */
        public void advanceTo(final long time) {
            now = Math.max(now, time);
        }
    }

    private final CaseRecording recording;
    private final Clock clock;
    private final long start;
    private final List<RecordedFrame> toDevice = new ArrayList<>();
    private final List<RecordedFrame> fromDevice = new ArrayList<>();
    /** For each frame from the device, how many frames the harness had sent before it. */
    private final List<Integer> sendsBefore = new ArrayList<>();
    /** For each frame from the device, how many control calls the harness had made before it. */
    private final List<Integer> callsBefore = new ArrayList<>();
    private int sent;
    private int received;
    private int called;
    private String divergence;

    /** Starts replaying {@code recording} at the clock's current time; throws when the case cannot be answered. */
    public CaseReplay(final CaseRecording recording, final Clock clock) {
        this.recording = recording;
        this.clock = clock;
        this.start = clock.now();
        if (recording.problem() != null) {
            divergence = recording.problem();
            throw new EvidenceUnavailableException("the recording cannot answer " + recording.id() + ": "
                + recording.problem());
        }
        for (final RecordedFrame frame : recording.frames()) {
            if (frame.toDut()) {
                if (!frame.undelivered()) {
                    toDevice.add(frame);
                }
            } else {
                fromDevice.add(frame);
                sendsBefore.add(toDevice.size());
                callsBefore.add(callsBefore(frame));
            }
        }
    }

    /**
     * The calls made before {@code frame}: those the recording places before it, or (files that do not say) those
     * made at an earlier time.
     */
    private int callsBefore(final RecordedFrame frame) {
        int n = 0;
        for (final RecordedCall call : recording.calls()) {
            if (call.framesBefore() >= 0 ? call.framesBefore() > frame.index() : call.time() >= frame.time()) {
                break;
            }
            n++;
        }
        return n;
    }

    public String id() {
        return recording.id();
    }

    /**
     * The next recorded frame from the device whose turn has come and whose time has come by {@code deadline}, or
     * null. A frame whose time the clock has already reached is handed out even when the deadline lies before it, as
     * the reference NIC hands out a frame it has already emitted.
     */
    public CapturedFrame poll(final long deadline) {
        if (divergence == null && received < fromDevice.size() && sent >= sendsBefore.get(received)
            && called >= callsBefore.get(received)) {
            final RecordedFrame frame = fromDevice.get(received);
            final long time = start + frame.time();
            if (time <= Math.max(deadline, clock.now())) {
                received++;
                clock.advanceTo(time);
                return new CapturedFrame(frame.bytes(), time);
            }
        }
        clock.advanceTo(deadline);
        return null;
    }

    /** The harness sends {@code bytes}: it must be the next frame the recording holds. */
    public void send(final byte[] bytes) {
        checkLive();
        if (sent >= toDevice.size()) {
            throw diverged("the harness sent a frame that the recording does not hold: the recording has "
                + toDevice.size() + " frame(s) sent to the device in this case, and the harness sent one more ("
                + FrameDifference.of(new byte[0], bytes) + ")");
        }
        final RecordedFrame expected = toDevice.get(sent);
        final String difference = FrameDifference.of(expected.bytes(), bytes);
        if (difference != null) {
            throw diverged("the harness sent frame #" + expected.index() + " differently from the recording: "
                + difference);
        }
        sent++;
        clock.advanceTo(start + expected.time());
    }

    /**
     * The harness calls {@code op} with {@code args}: the answer recorded for that call, decoded by {@code decode}
     * (which may be given JSON null for a void call), or the recorded error thrown.
     */
    public <T> T call(final String op, final Map<String, Object> args, final Function<JsonNode, T> decode) {
        checkLive();
        final int n = called;
        if (n >= recording.calls().size()) {
            throw diverged("the harness made control call #" + n + " (" + op + ") but the recording of the case holds "
                + "only " + recording.calls().size() + " call(s)");
        }
        final RecordedCall call = recording.calls().get(n);
        if (!call.op().equals(op)) {
            throw diverged("control call #" + n + " differs from the recording: the harness called " + op
                + ", the recording has " + call.op());
        }
        final String difference = PlainJson.difference("args", call.args(), args);
        if (difference != null) {
            throw diverged("control call #" + n + " (" + op + ") differs from the recording: " + difference);
        }
        called++;
        clock.advanceTo(start + call.time());
        if (call.error() != null) {
            throw ReplayAnswers.error(call.error());
        }
        try {
            return decode.apply(call.result());
        } catch (IllegalArgumentException | NullPointerException e) {
            throw diverged("the recorded answer to control call #" + n + " (" + op + ") cannot be read: "
                + e.getMessage());
        }
    }

    /**
     * Null when the harness used everything the recording holds of the case (or the replay already stopped it), else
     * what it left: a replay reaching the recorded verdict asks for every recorded frame and call, so a rest means the
     * harness stopped earlier than in the recorded run (it judged a frame differently).
     */
    public String leftovers() {
        if (divergence != null) {
            return null;
        }
        final List<String> parts = new ArrayList<>();
        if (received < fromDevice.size()) {
            parts.add((fromDevice.size() - received) + " frame(s) from the device, the first #"
                + fromDevice.get(received).index());
        }
        if (sent < toDevice.size()) {
            parts.add((toDevice.size() - sent) + " frame(s) to the device, the first #" + toDevice.get(sent).index());
        }
        if (called < recording.calls().size()) {
            parts.add((recording.calls().size() - called) + " control call(s), the first #" + called + " ("
                + recording.calls().get(called).op() + ")");
        }
        return parts.isEmpty() ? null : "the replay of " + recording.id() + " ended before its recording did: "
            + String.join(", ", parts) + " unused";
    }

    private void checkLive() {
        if (divergence != null) {
            throw new EvidenceUnavailableException(divergence);
        }
    }

    private EvidenceUnavailableException diverged(final String why) {
        divergence = why;
        return new EvidenceUnavailableException(why);
    }
}
