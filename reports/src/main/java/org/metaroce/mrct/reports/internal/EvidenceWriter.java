package org.metaroce.mrct.reports.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Instant;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.metaroce.mrct.harness.result.CaseResult;
import org.metaroce.mrct.harness.result.ControlRecord;
import org.metaroce.mrct.harness.result.EvidenceComment;
import org.metaroce.mrct.harness.result.Direction;
import org.metaroce.mrct.harness.result.FrameRecord;
import org.metaroce.mrct.harness.result.MemoryDigest;
import org.metaroce.mrct.harness.result.RunInfo;
import org.metaroce.mrct.spi.Endpoints;
import org.metaroce.mrct.wire.MacAddress;
import org.metaroce.mrct.wire.capture.CaptureReader;
import org.metaroce.mrct.wire.capture.PcapngWriter;

/**
 * Maintains {@code evidence.pcapng}: every frame of every case in run order, on interface 0 {@code to-dut} or 1
 * {@code from-dut} (nanosecond timestamps), each with an {@link EvidenceComment}, then the case's control-plane calls
 * on interface 2 {@code control} (link type USER0, one JSON record per packet). Unlike the other reports this file
 * is appended to, not rewritten: whole blocks are handed to the file after every case, and a pcapng file cut at a
 * block boundary is valid, so a crash leaves the evidence of the cases done.
 *
 * <p>Timestamps are the run's start (epoch nanoseconds) plus a per-case base plus the frame's
 * {@code timestampNanos}; the base of the first case is 0, and each next case starts 1 µs after the later of the
 * previous case's last frame and its device duration. A frame never gets an earlier timestamp than the frame before
 * it, so time never goes backwards in the file.
 */
public final class EvidenceWriter implements ReportWriter {
    /** Interface of frames the harness sent. */
    public static final int TO_DUT = 0;
    /** Interface of frames the device sent. */
    public static final int FROM_DUT = 1;
    /**
     * Interface of the control-plane calls of each case (link type USER0, 147): each packet is the JSON of one
     * {@code ControlRecord}, so a recorded run can be replayed offline.
     */
    public static final int CONTROL = 2;
    /** LINKTYPE_USER0. */
    public static final int LINKTYPE_CONTROL = 147;
    /**
     * Interface of the bytes of large {@code readMemory} answers (link type USER1, 148): they follow their control
     * record, which holds their digest ({@link MemoryDigest}), in packets of at most {@link MemoryDigest#PART_BYTES}.
     */
    public static final int MEMORY = 3;
    /** LINKTYPE_USER1. */
    public static final int LINKTYPE_MEMORY = 148;
    private static final long CASE_GAP_NANOS = 1_000;

    private final Path file;
    private final List<CaseResult> pending = new ArrayList<>();
    private PcapngWriter writer;
    private boolean open;
    private long caseBase;
    private long last;
    private long packets;

    public EvidenceWriter(final Path file) {
        this.file = file;
    }

    @Override
    public Path file() {
        return file;
    }

    @Override
    public void started(final RunState state) {
        closeQuietly();
        pending.clear();
        open = true;
        state.evidenceOpened();
        caseBase = startNanos(state.info().start());
        last = caseBase;
    }

    @Override
    public void caseAdded(final CaseResult result, final RunState state) {
        if (!open) {
            throw new IllegalStateException("caseFinished(" + result.id() + ") after the evidence was closed");
        }
        pending.add(result);
    }

    @Override
    public boolean rewrites() {
        return false;
    }

    @Override
    public void write(final RunState state, final boolean lastWrite) throws IOException {
        if (!open) {
            return;
        }
        if (writer == null) {
            writer = PcapngWriter.create(file, PcapngWriter.Options.defaults()
                .withUserApplication("mrct " + Text.orEmpty(state.info().suiteVersion()))
                .withComment(sectionComment(state.info())));
            writer.addInterface(CaptureReader.LINKTYPE_ETHERNET, "to-dut", 9);
            writer.addInterface(CaptureReader.LINKTYPE_ETHERNET, "from-dut", 9);
            writer.addInterface(LINKTYPE_CONTROL, "control", 9);
            writer.addInterface(LINKTYPE_MEMORY, "memory", 9);
        }
        for (final CaseResult result : pending) {
            packets = 0;
            append(result);
            state.evidenceAppended(packets);
        }
        pending.clear();
        if (lastWrite) {
            writer.sync();
            writer.close();
            writer = null;
            open = false;
        } else {
            writer.flush();
        }
    }

    private void append(final CaseResult result) throws IOException {
        long end = caseBase + Math.max(0, result.deviceNanos());
        for (final FrameRecord frame : result.evidence()) {
            final long ts = Math.max(last, caseBase + Math.max(0, frame.timestampNanos()));
            last = ts;
            end = Math.max(end, ts);
            final boolean toDut = frame.direction() == Direction.TO_DUT;
            final Map<String, String> fields = new LinkedHashMap<>();
            fields.put("case", result.id());
            fields.put("step", Integer.toString(Numbering.step(frame.step())));
            fields.put("dir", toDut ? "to-dut" : "from-dut");
            fields.put("index", Integer.toString(frame.index()));
            fields.put("verdict", result.verdict() == null ? "" : result.verdict().name());
            fields.put("note", frame.note());
            fields.put("time", Long.toString(frame.timestampNanos()));
            final byte[] bytes = frame.bytes() == null ? new byte[0] : frame.bytes();
            writer.write(toDut ? TO_DUT : FROM_DUT, ts, ByteBuffer.wrap(bytes), 0, bytes.length,
                EvidenceComment.format(fields));
            packets++;
        }
        // one generator for all the records of the case (a scale case makes hundreds of thousands of calls)
        final java.io.ByteArrayOutputStream buffer = new java.io.ByteArrayOutputStream(512);
        final com.fasterxml.jackson.core.JsonGenerator generator = JsonText.HTML_SAFE.generator(buffer);
        generator.setRootValueSeparator(null);
        for (final ControlRecord record : result.control()) {
            final long ts = Math.max(last, caseBase + Math.max(0, record.timestampNanos()));
            final Map<String, String> fields = new LinkedHashMap<>();
            fields.put("case", result.id());
            fields.put("step", "control");
            fields.put("dir", "control");
            fields.put("index", Integer.toString(record.index()));
            fields.put("verdict", result.verdict() == null ? "" : result.verdict().name());
            fields.put("note", record.op());
            final ObjectNode node = JsonModel.control(record);
            final byte[] memory = digestMemory(node);
            buffer.reset();
            JsonText.write(generator, node);
            generator.flush();
            writeParts(CONTROL, ts, buffer.toByteArray(), fields);
            if (memory != null) {
                fields.put("dir", "memory");
                writeParts(MEMORY, ts, memory, fields);
            }
        }
        caseBase = end + CASE_GAP_NANOS;
        last = Math.max(last, caseBase);
    }

    /**
     * Replaces the memory contents of a {@code writeMemory} or {@code readMemory} record larger than
     * {@link MemoryDigest#INLINE_MAX_BYTES} by their digest; returns the bytes of a {@code readMemory} answer so
     * digested, which a replay needs whole (they follow the record on interface {@link #MEMORY}), else null.
     */
    private static byte[] digestMemory(final ObjectNode node) {
        final byte[] bytes = JsonModel.digestMemory(node);
        if (bytes != null) {
            ((ObjectNode) node.get("result")).put("parts", parts(bytes.length));
        }
        return bytes;
    }

    private static int parts(final int length) {
        return Math.max(1, (length + MemoryDigest.PART_BYTES - 1) / MemoryDigest.PART_BYTES);
    }

    /**
     * Writes {@code bytes} as one packet of interface {@code iface}, or, when longer than
     * {@link MemoryDigest#PART_BYTES}, as consecutive packets of at most that many bytes whose comments add
     * {@code part=<k>/<n>} (from 1): no block comes near the 256 KiB Wireshark reads in one packet.
     */
    private void writeParts(final int iface, final long ts, final byte[] bytes, final Map<String, String> fields)
            throws IOException {
        final int n = parts(bytes.length);
        if (n == 1 && iface == CONTROL) {
            writer.write(iface, ts, ByteBuffer.wrap(bytes), 0, bytes.length, EvidenceComment.format(fields));
            packets++;
            return;
        }
        for (int k = 0; k < n; k++) {
            final int from = k * MemoryDigest.PART_BYTES;
            final int length = Math.min(MemoryDigest.PART_BYTES, bytes.length - from);
            fields.put("part", (k + 1) + "/" + n);
            writer.write(iface, ts, ByteBuffer.wrap(bytes), from, length, EvidenceComment.format(fields));
            packets++;
        }
        fields.remove("part");
    }

    private static String sectionComment(final RunInfo info) {
        final Map<String, String> fields = new LinkedHashMap<>();
        fields.put("run", JsonModel.instant(info.start()));
        fields.put("seed", Long.toString(info.seed()));
        fields.put("spec", info.specVersion());
        fields.put("adapter", info.adapter());
        fields.put("device", String.join(" ", Text.orEmpty(info.vendor()), Text.orEmpty(info.model()),
            Text.orEmpty(info.firmware())).trim());
        // what a replay of the run needs beyond the frames and control records (reports/README.md)
        fields.put("vendor", info.vendor());
        fields.put("model", info.model());
        fields.put("firmware", info.firmware());
        fields.put("profile", info.profile());
        fields.put("profile_sha256", info.profileHash());
        fields.put("strict", Boolean.toString(info.strict()));
        if (info.fault() != null) {
            fields.put("fault", info.fault());
        }
        if (!info.capabilities().isEmpty()) {
            fields.put("capabilities", String.join(",", info.capabilities()));
        }
        if (info.timing() != null) {
            fields.put("expect_timeout_ns", Long.toString(info.timing().expectTimeoutNs()));
            fields.put("tolerance_ns", Long.toString(info.timing().toleranceNs()));
            fields.put("tolerance_pct", Integer.toString(info.timing().tolerancePercent()));
        }
        final Endpoints link = info.endpoints();
        if (link != null) {
            fields.put("device_mac", MacAddress.format(link.deviceMac()));
            fields.put("device_ipv4", link.deviceIpv4());
            fields.put("device_ipv6", link.deviceIpv6());
            fields.put("harness_mac", MacAddress.format(link.harnessMac()));
            fields.put("harness_ipv4", link.harnessIpv4());
            fields.put("harness_ipv6", link.harnessIpv6());
        }
        return EvidenceComment.format(fields);
    }

    private static long startNanos(final Instant start) {
        if (start == null || start.getEpochSecond() < 0) {
            return 0;
        }
        return Math.addExact(Math.multiplyExact(start.getEpochSecond(), 1_000_000_000L), start.getNano());
    }

    private void closeQuietly() {
        if (writer != null) {
            try {
                writer.close();
            } catch (IOException ignored) {
                // the file of an abandoned run; the new run truncates it
            }
            writer = null;
        }
    }
}
