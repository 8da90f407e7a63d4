package org.metaroce.mrct.replay.internal;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.metaroce.mrct.harness.result.EvidenceComment;
import org.metaroce.mrct.harness.result.RunInfo;
import org.metaroce.mrct.replay.RecordedRun;
import org.metaroce.mrct.replay.RecordingException;
import org.metaroce.mrct.replay.SpecVersionMismatchException;
import org.metaroce.mrct.spi.Capability;
import org.metaroce.mrct.spi.Endpoints;
import org.metaroce.mrct.wire.DecodedFrame;
import org.metaroce.mrct.wire.FrameDecoder;
import org.metaroce.mrct.wire.HeaderKind;
import org.metaroce.mrct.wire.MacAddress;
import org.metaroce.mrct.wire.capture.CaptureFormat;
import org.metaroce.mrct.wire.capture.CaptureFormatException;
import org.metaroce.mrct.wire.capture.CaptureReader;

/**
 * One pass over an {@code evidence.pcapng} (reports/README.md): the run as its section header comment describes it,
 * checked against this harness's specification version, and where each case's packets lie. Nothing but the comments
 * is kept, so memory stays flat however large the file; a case's packets are read when it is replayed
 * ({@link CaseRecording#read}).
 */
public final class EvidenceIndex {
    /** Link type of the control records' interface (LINKTYPE_USER0). */
    public static final int LINKTYPE_CONTROL = 147;
    /** Link type of the memory bytes that follow large readMemory records (LINKTYPE_USER1). */
    public static final int LINKTYPE_MEMORY = 148;

    private final RecordedRun run;
    private final Map<String, CaseSpan> spans;
    private final long records;

    private EvidenceIndex(final RecordedRun run, final Map<String, CaseSpan> spans, final long records) {
        this.run = run;
        this.spans = spans;
        this.records = records;
    }

    /** What the section header says, with the cases found. */
    public RecordedRun run() {
        return run;
    }

    /** The span of case {@code id}, or null when the file has none. */
    public CaseSpan span(final String id) {
        return spans.get(id);
    }

    /** Every case's span, in file order. */
    public Map<String, CaseSpan> spans() {
        return spans;
    }

    /** Packet records read. */
    public long records() {
        return records;
    }

    /**
     * Reads {@code file} once. Throws when it is not mrct evidence of {@code specVersion}; damage after the header
     * costs only the cases from the damage on, which a note names.
     */
    public static EvidenceIndex scan(final Path file, final String specVersion) throws RecordingException {
        if (!Files.exists(file)) {
            throw new RecordingException(file, "no such file");
        }
        if (!Files.isRegularFile(file)) {
            throw new RecordingException(file, "not a regular file");
        }
        try (CaptureReader reader = CaptureReader.open(file)) {
            if (reader.format() != CaptureFormat.PCAPNG) {
                throw new RecordingException(file, "a classic pcap file; the evidence of mrct run is pcapng, with a "
                    + "comment on every packet");
            }
            final Map<String, String> section = section(file, reader.sectionComment());
            final String spec = section.get("spec");
            if (spec == null || spec.isEmpty()) {
                throw new RecordingException(file, "its section comment names no specification version (spec=)");
            }
            if (!spec.equals(specVersion)) {
                throw new SpecVersionMismatchException(file, spec, specVersion);
            }
            if ("pcap".equals(section.get("adapter"))) {
                throw new RecordingException(file, "written by mrct analyze (adapter=pcap), not by mrct run: it "
                    + "holds an analysis of a capture, not a run to replay");
            }
            final long seed;
            try {
                seed = Long.parseLong(section.getOrDefault("seed", ""));
            } catch (NumberFormatException e) {
                throw new RecordingException(file, "its section comment has no valid seed (seed="
                    + section.get("seed") + ")");
            }
            final Scan scan = new Scan(file, section.containsKey("device_mac"));
            scan.read(reader);
            return new EvidenceIndex(runOf(file, section, seed, scan), scan.spans, scan.records);
        } catch (NoSuchFileException e) {
            throw new RecordingException(file, "no such file");
        } catch (CaptureFormatException e) {
            throw new RecordingException(file, "not readable as mrct evidence: byte " + e.byteOffset() + ": "
                + e.reason(), e);
        } catch (IOException e) {
            throw new RecordingException(file, "cannot be read: " + e.getMessage(), e);
        }
    }

    private static Map<String, String> section(final Path file, final String comment) throws RecordingException {
        if (!EvidenceComment.isEvidence(comment)) {
            throw new RecordingException(file, "not mrct evidence: its section header has no 'mrct run=... seed=... "
                + "spec=...' comment (mrct run writes one in evidence.pcapng)");
        }
        try {
            return EvidenceComment.parse(comment);
        } catch (IllegalArgumentException e) {
            throw new RecordingException(file, "its section comment cannot be read: " + e.getMessage());
        }
    }

    private static RecordedRun runOf(final Path file, final Map<String, String> section, final long seed,
                                     final Scan scan) {
        final List<String> notes = new ArrayList<>(scan.notes);
        Instant start = null;
        try {
            start = section.containsKey("run") && !section.get("run").isEmpty() ? Instant.parse(section.get("run"))
                : null;
        } catch (DateTimeParseException e) {
            notes.add("the recorded start time '" + section.get("run") + "' is not an ISO-8601 instant");
        }
        final String adapter = blankToNull(section.get("adapter"));
        final Set<Capability> capabilities;
        if (section.containsKey("capabilities")) {
            capabilities = EnumSet.noneOf(Capability.class);
            for (final String label : section.get("capabilities").split(",")) {
                final Capability capability = Capability.byLabel(label.trim());
                if (capability != null) {
                    capabilities.add(capability);
                } else if (!label.isBlank()) {
                    notes.add("the recorded capability '" + label.trim() + "' is unknown to this mrct; ignored");
                }
            }
        } else {
            capabilities = EnumSet.allOf(Capability.class);
            notes.add("the recording does not list its adapter's capabilities (written by an older mrct): the replay "
                + "claims all of them, so a case the recorded run did not run is INCONCLUSIVE, not NOT_APPLICABLE");
        }
        Endpoints endpoints = recordedEndpoints(section);
        if (endpoints == null) {
            endpoints = scan.inferredEndpoints();
            notes.add("the recording does not give the link's addresses (written by an older mrct): taken from the "
                + "first frames the harness sent (harness " + endpoints.harnessIpv4() + ", device "
                + endpoints.deviceIpv4() + ")");
        }
        final String strict = section.get("strict");
        final String device = section.getOrDefault("device", "");
        return new RecordedRun(file, start, seed, section.get("spec"), adapter,
            section.containsKey("vendor") ? section.get("vendor") : device, blankToNull(section.get("model")),
            blankToNull(section.get("firmware")), blankToNull(section.get("profile")),
            blankToNull(section.get("profile_sha256")), strict == null || strict.isEmpty() ? null
                : Boolean.valueOf(strict), blankToNull(section.get("fault")), capabilities, endpoints,
            timing(section, notes), new ArrayList<>(scan.spans.keySet()), notes);
    }

    private static RunInfo.Timing timing(final Map<String, String> section, final List<String> notes) {
        if (!section.containsKey("expect_timeout_ns")) {
            notes.add("the recording does not give its run's --expect-timeout and tolerances (written by an older "
                + "mrct): the replay uses the defaults or the options given");
            return null;
        }
        try {
            return new RunInfo.Timing(Long.parseLong(section.get("expect_timeout_ns")),
                Long.parseLong(section.getOrDefault("tolerance_ns", "0")),
                Integer.parseInt(section.getOrDefault("tolerance_pct", "0")));
        } catch (NumberFormatException e) {
            notes.add("the recorded timing options cannot be read (" + e.getMessage() + "): the replay uses the "
                + "defaults or the options given");
            return null;
        }
    }

    private static Endpoints recordedEndpoints(final Map<String, String> section) {
        final long deviceMac = MacAddress.parse(section.get("device_mac"));
        final long harnessMac = MacAddress.parse(section.get("harness_mac"));
        if (deviceMac < 0 || harnessMac < 0) {
            return null;
        }
        return new Endpoints(deviceMac, blankToNull(section.get("device_ipv4")),
            blankToNull(section.get("device_ipv6")), harnessMac, blankToNull(section.get("harness_ipv4")),
            blankToNull(section.get("harness_ipv6")));
    }

    private static String blankToNull(final String value) {
        return value == null || value.isEmpty() ? null : value;
    }

    /** The walk over the packets. */
    private static final class Scan {
        private final Path file;
        private final boolean endpointsKnown;
        private final Map<String, CaseSpan> spans = new LinkedHashMap<>();
        private final List<String> notes = new ArrayList<>();
        private final FrameDecoder decoder = new FrameDecoder();
        private long records;
        private String current;
        private long first;
        private long count;
        private String verdict;
        private Endpoints v4;
        private Endpoints v6;

        Scan(final Path file, final boolean endpointsKnown) {
            this.file = file;
            this.endpointsKnown = endpointsKnown;
        }

        void read(final CaptureReader reader) throws IOException, RecordingException {
            try {
                while (reader.next()) {
                    records++;
                    packet(reader);
                }
                close(null);
            } catch (CaptureFormatException e) {
                final String why = "the file is damaged at byte " + e.byteOffset() + " (record " + e.recordNumber()
                    + "): " + e.reason();
                notes.add(why + "; the cases before it replay" + (current == null ? "" : ", " + current
                    + " and any after it do not"));
                close("its recording is cut short: " + why);
            }
        }

        private void packet(final CaptureReader reader) throws RecordingException {
            final String comment = reader.comment();
            if (!EvidenceComment.isEvidence(comment)) {
                throw new RecordingException(file, "packet " + reader.recordNumber() + " (byte "
                    + reader.byteOffset() + ") has no mrct comment, so it belongs to no case: the file is not "
                    + "evidence as mrct run writes it");
            }
            final Map<String, String> fields;
            try {
                fields = EvidenceComment.parse(comment);
            } catch (IllegalArgumentException e) {
                throw new RecordingException(file, "packet " + reader.recordNumber() + " (byte " + reader.byteOffset()
                    + "): " + e.getMessage());
            }
            final String id = fields.get("case");
            if (id == null || id.isEmpty()) {
                throw new RecordingException(file, "packet " + reader.recordNumber() + " (byte " + reader.byteOffset()
                    + ") names no case");
            }
            if (!id.equals(current)) {
                close(null);
                current = id;
                first = reader.recordNumber();
                count = 0;
                verdict = fields.get("verdict");
            }
            count++;
            if (!endpointsKnown && "to-dut".equals(fields.get("dir"))
                && reader.linkType() == CaptureReader.LINKTYPE_ETHERNET) {
                learnEndpoints(reader);
            }
        }

        private void close(final String problem) {
            if (current == null) {
                return;
            }
            CaseSpan span = new CaseSpan(current, first, count, verdict, problem);
            final CaseSpan earlier = spans.get(current);
            if (earlier != null) {
                final String twice = "the recording holds case " + current + " twice (packets " + earlier.first()
                    + " to " + (earlier.first() + earlier.count() - 1) + " and " + first + " to " + (first + count - 1)
                    + ")";
                span = earlier.withProblem(twice);
            }
            spans.put(current, span);
            current = null;
        }

        private void learnEndpoints(final CaptureReader reader) {
            if (v4 != null && v6 != null) {
                return;
            }
            final DecodedFrame frame = decoder.decode(reader.buffer(), reader.offset(), reader.capturedLength());
            if (!frame.isRoce() || frame.has(HeaderKind.VLAN)) {
                return;
            }
            final long harnessMac = frame.eth().source();
            final long deviceMac = frame.eth().destination();
            final String harnessIp = DecodedFrame.formatAddress(frame.ipSource());
            final String deviceIp = DecodedFrame.formatAddress(frame.ipDestination());
            if (v4 == null && frame.has(HeaderKind.IPV4)) {
                v4 = new Endpoints(deviceMac, deviceIp, null, harnessMac, harnessIp, null);
            } else if (v6 == null && frame.has(HeaderKind.IPV6)) {
                v6 = new Endpoints(deviceMac, null, deviceIp, harnessMac, null, harnessIp);
            }
        }

        /** The addresses of the first IPv4 and IPv6 frames the harness sent (documentation ranges when none). */
        Endpoints inferredEndpoints() {
            final Endpoints base = v4 != null ? v4 : v6 != null ? v6
                : new Endpoints(0x02_00_00_00_00_0DL, "198.51.100.2", null, 0x02_00_00_00_00_0AL, "198.51.100.1",
                    null);
            return new Endpoints(base.deviceMac(), v4 != null ? v4.deviceIpv4() : base.deviceIpv4(),
                v6 != null ? v6.deviceIpv6() : null, base.harnessMac(),
                v4 != null ? v4.harnessIpv4() : base.harnessIpv4(), v6 != null ? v6.harnessIpv6() : null);
        }
    }
}
