package org.metaroce.mrct.analyzer;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.metaroce.mrct.wire.Encapsulation;
import org.metaroce.mrct.wire.FrameBuilder;
import org.metaroce.mrct.wire.Opcode;
import org.metaroce.mrct.wire.capture.PcapngWriter;

/**
 * An mrct evidence file of one case written from hand-built frames (reports/README.md): each frame with its packet
 * comment ({@code mrct case=... dir=to-dut} for the harness's frames, {@code from-dut} for the device's, which alone
 * are judged), then the case's control records on the control interface (link type 147), as {@code mrct run} writes
 * them after the frames. The device's QP is {@link #DUT_QPN} at {@link #DUT_IP}, the harness's {@link #HARNESS_QPN}.
 */
final class HandBuiltEvidence {
    static final String HARNESS_IP = "198.51.100.1";
    static final String DUT_IP = "198.51.100.2";
    static final int HARNESS_QPN = 0x000100;
    static final int DUT_QPN = 0x000200;
    static final Encapsulation TO_DUT = Encapsulation.ipv4(HARNESS_IP, DUT_IP).withUdpSourcePort(0xC100);
    static final Encapsulation FROM_DUT = Encapsulation.ipv4(DUT_IP, HARNESS_IP).withUdpSourcePort(0xC200);
    private static final long START_NS = 1_700_000_000_000_000_000L;
    private static final long GAP_NS = 2_000;

    private record Entry(boolean toDut, byte[] bytes, long gapNs) {
    }

    private final String kase;
    private final List<Entry> frames = new ArrayList<>();
    private final List<String> control = new ArrayList<>();
    private String sectionComment;
    private long nextGapNs = GAP_NS;

    HandBuiltEvidence(final String kase) {
        this.kase = kase;
    }

    /** A frame the harness sends to the device's QP (not judged). */
    HandBuiltEvidence toDut(final FrameBuilder frame) {
        frames.add(new Entry(true, frame.encapsulation(TO_DUT).destQp(DUT_QPN).build(), gap()));
        return this;
    }

    /** The section header's comment ({@code mrct run=... tolerance_ns=...}); none by default. */
    HandBuiltEvidence sectionComment(final String comment) {
        this.sectionComment = comment;
        return this;
    }

    /** The next frame comes {@code gapNs} after the one before (2 µs by default). */
    HandBuiltEvidence after(final long gapNs) {
        this.nextGapNs = gapNs;
        return this;
    }

    private long gap() {
        final long gap = nextGapNs;
        nextGapNs = GAP_NS;
        return gap;
    }

    /** A frame the device sends to the harness's QP (judged). */
    HandBuiltEvidence fromDut(final FrameBuilder frame) {
        final boolean data = frame.opcode() != Opcode.ACKNOWLEDGE && frame.opcode() != Opcode.CNP;
        frames.add(new Entry(false, frame.encapsulation(FROM_DUT).ecn(data ? 2 : 0).destQp(HARNESS_QPN).build(),
            gap()));
        return this;
    }

    /** A createQp record for the device's QP: {@code attributes} are JSON members beside its dest_qpn. */
    HandBuiltEvidence createQp(final String attributes) {
        control.add("{\"index\":" + control.size() + ",\"timestampNanos\":0,\"op\":\"createQp\",\"args\":{"
            + "\"attributes\":{\"dest_qpn\":" + HARNESS_QPN + (attributes.isEmpty() ? "" : "," + attributes)
            + "}},\"result\":" + DUT_QPN + ",\"framesBefore\":0,\"error\":null}");
        return this;
    }

    Path write(final Path file) throws IOException {
        final PcapngWriter.Options options = sectionComment == null ? PcapngWriter.Options.defaults()
            : PcapngWriter.Options.defaults().withComment(sectionComment);
        try (PcapngWriter writer = PcapngWriter.create(file, options)) {
            final int ethernet = writer.addInterface(1, "dut", 9);
            final int records = writer.addInterface(147, "control", 9);
            long ts = START_NS;
            for (int i = 0; i < frames.size(); i++) {
                final Entry e = frames.get(i);
                ts += i == 0 ? 0 : e.gapNs() - GAP_NS;
                writer.write(ethernet, ts, ByteBuffer.wrap(e.bytes()), 0, e.bytes().length, "mrct case=" + kase
                    + " step=" + (i + 1) + " dir=" + (e.toDut() ? "to-dut" : "from-dut") + " index=" + i
                    + " verdict=PASS note=" + (e.toDut() ? "sent" : "matched"));
                ts += GAP_NS;
            }
            for (int i = 0; i < control.size(); i++) {
                final byte[] json = control.get(i).getBytes(StandardCharsets.UTF_8);
                writer.write(records, ts, ByteBuffer.wrap(json), 0, json.length, "mrct case=" + kase
                    + " step=control dir=control index=" + i + " verdict=PASS note=createQp");
            }
        }
        return file;
    }
}
