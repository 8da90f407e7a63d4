package org.metaroce.mrct.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metaroce.mrct.harness.engine.Runner;
import org.metaroce.mrct.harness.result.CaseResult;
import org.metaroce.mrct.harness.result.EvidenceComment;
import org.metaroce.mrct.harness.result.Verdict;
import org.metaroce.mrct.reference.Fault;

/**
 * Replays of recorded runs of the reference NIC: the verdicts (and the rules of the failures) come out the same case
 * by case, also for requester cases that run the harness's peer, generated cases and a faulty device; an edited
 * recording makes exactly the cases it touches INCONCLUSIVE; a recording of another specification version is refused.
 * Two runs are recorded once for the whole class (a selection of the suite, a few seconds); the whole bundled suite
 * is replayed in the CLI's ReplayCommandTest.
 */
class ReplayAdapterTest {
    /** Responder cases, requester cases with a peer, congestion control, generated cases of both kinds. */
    private static final String[] SELECTION = {"ACK-00", "PLC-001", "SEC-001", "RTX-001", "RTX-005", "CC-011", "GEN-"};
    private static final String[] FAULT_SELECTION = {"RTX-00", "ACK-002", "GEN-R-"};
    private static final Fault FAULT = Fault.GO_BACK_N_RETRANSMIT;

    @TempDir
    static Path dir;

    private static Recordings recordings;
    private static List<Runner.Planned> plan;
    private static Map<String, CaseResult> recorded;
    private static Path evidence;
    private static List<Runner.Planned> faultPlan;
    private static Map<String, CaseResult> faultRecorded;
    private static Path faultEvidence;

    @BeforeAll
    static void record() throws Exception {
        recordings = new Recordings();
        plan = recordings.select(SELECTION);
        recorded = recordings.record(dir.resolve("plain"), plan, Set.of());
        evidence = dir.resolve("plain/evidence.pcapng");
        faultPlan = recordings.select(FAULT_SELECTION);
        faultRecorded = recordings.record(dir.resolve("fault"), faultPlan, Set.of(FAULT));
        faultEvidence = dir.resolve("fault/evidence.pcapng");
    }

    @Test
    void theReplayedVerdictsAreTheRecordedOnesCaseByCase() throws Exception {
        assertThat(plan).as("the selection has requester cases with a peer").anyMatch(Recordings::hasPeer);
        assertThat(recorded.keySet()).contains("GEN-0", "GEN-R-2");
        assertThat(recorded.values()).extracting(CaseResult::verdict).contains(Verdict.PASS)
            .doesNotContain(Verdict.ERROR, Verdict.INCONCLUSIVE);

        final Map<String, CaseResult> replayed = recordings.replay(evidence, plan);

        assertThat(differences(recorded, replayed)).isEmpty();
        try (ReplayAdapter replay = ReplayAdapter.open(evidence, recordings.spec.version())) {
            assertThat(replay.recording().seed()).isEqualTo(Recordings.SEED);
            assertThat(replay.recording().cases()).containsExactlyElementsOf(recorded.keySet());
            assertThat(replay.recording().profileHash()).isEqualTo(recordings.profile.sha256());
            assertThat(replay.recording().notes()).isEmpty();
            assertThat(replay.recording().timing())
                .isEqualTo(new org.metaroce.mrct.harness.result.RunInfo.Timing(Recordings.EXPECT_TIMEOUT_NS, 0, 0));
            try (org.metaroce.mrct.reference.ReferenceAdapter reference = org.metaroce.mrct.reference.ReferenceAdapter
                .fromProfile(recordings.profile, recordings.spec, Set.of())) {
                assertThat(replay.capabilities()).isEqualTo(reference.capabilities());
                assertThat(replay.endpoints()).isEqualTo(reference.endpoints());
            }
            assertThat(replay.recordedVerdict("GEN-0")).isEqualTo(recorded.get("GEN-0").verdict().name());
        }
    }

    @Test
    void theFailuresOfAFaultyDeviceAndTheirRulesReproduce() throws Exception {
        final List<CaseResult> failed = faultRecorded.values().stream()
            .filter(r -> r.verdict() == Verdict.FAIL).toList();
        assertThat(failed).as("cases failed by fault %s", FAULT.label()).isNotEmpty();
        assertThat(failed).anySatisfy(r -> assertThat(r.failure().rule()).isEqualTo(FAULT.rule()));
        assertThat(faultRecorded.values()).extracting(CaseResult::verdict).contains(Verdict.PASS);

        final Map<String, CaseResult> replayed = recordings.replay(faultEvidence, faultPlan);

        assertThat(differences(faultRecorded, replayed)).isEmpty();
        try (ReplayAdapter replay = ReplayAdapter.open(faultEvidence, recordings.spec.version())) {
            assertThat(replay.recording().fault()).isEqualTo(FAULT.label());
        }
    }

    @Test
    void anEditedFrameAndARemovedControlRecordMakeExactlyTheirCasesInconclusive() throws Exception {
        // a responder case: edit a frame the harness sent; a requester case with a peer: remove a control record
        final String edited = plan.stream().filter(p -> !Recordings.hasPeer(p) && p.id().startsWith("ACK-00")
            && toDutFrames(p.id()) >= 2).findFirst().orElseThrow().id();
        final String removed = plan.stream().filter(Recordings::hasPeer).findFirst().orElseThrow().id();
        final int frame = toDutFrameIndex(edited, 1);
        final Path tampered = dir.resolve("tampered.pcapng");
        Recordings.copy(evidence, tampered, null, (fields, bytes) -> {
            if (edited.equals(fields.get("case")) && "to-dut".equals(fields.get("dir"))
                && Integer.toString(frame).equals(fields.get("index"))) {
                bytes[bytes.length - 5] ^= 0x40; // inside the payload or the ICRC
            }
            if (removed.equals(fields.get("case")) && "control".equals(fields.get("dir"))
                && "3".equals(fields.get("index"))) {
                return null;
            }
            return bytes;
        });

        final Map<String, CaseResult> replayed = recordings.replay(tampered, plan);

        assertThat(replayed.get(edited).verdict()).isEqualTo(Verdict.INCONCLUSIVE);
        assertThat(replayed.get(edited).reason()).startsWith("the harness sent frame #" + frame
            + " differently from the recording: ").contains("recorded", "sent");
        assertThat(replayed.get(removed).verdict()).isEqualTo(Verdict.INCONCLUSIVE);
        assertThat(replayed.get(removed).reason()).contains(removed, "lacks control call #3");
        final Map<String, CaseResult> others = new LinkedHashMap<>(recorded);
        others.remove(edited);
        others.remove(removed);
        final Map<String, CaseResult> replayedOthers = new LinkedHashMap<>(replayed);
        replayedOthers.remove(edited);
        replayedOthers.remove(removed);
        assertThat(differences(others, replayedOthers)).isEmpty();
    }

    @Test
    void memoryRecordedAsADigestReplaysAndAnEditMakesItsCaseInconclusive() throws Exception {
        // evidence.pcapng keeps memory over 256 bytes as a digest (writeMemory) or as parts checked by one (readMemory)
        final java.util.Set<String> reads = new java.util.LinkedHashSet<>();
        final java.util.Set<String> writes = new java.util.LinkedHashSet<>();
        Recordings.copy(evidence, dir.resolve("scan.pcapng"), null, (fields, bytes) -> {
            if ("memory".equals(fields.get("dir"))) {
                reads.add(fields.get("case"));
            }
            final String text = new String(bytes, java.nio.charset.StandardCharsets.ISO_8859_1);
            if ("writeMemory".equals(fields.get("note")) && text.contains("\"sha256\"")) {
                writes.add(fields.get("case"));
            }
            return bytes;
        });
        assertThat(reads).as("cases with readMemory bytes in parts").isNotEmpty();
        final String read = reads.iterator().next();
        final String write = writes.stream().filter(id -> !id.equals(read)).findFirst().orElseThrow();
        assertThat(recorded.get(read).verdict()).isEqualTo(Verdict.PASS);
        assertThat(recorded.get(write).verdict()).isEqualTo(Verdict.PASS);
        final Path tampered = dir.resolve("memory.pcapng");
        Recordings.copy(evidence, tampered, null, (fields, bytes) -> {
            if (read.equals(fields.get("case")) && "memory".equals(fields.get("dir"))) {
                bytes[0] ^= 0x01;
            }
            if (write.equals(fields.get("case")) && "writeMemory".equals(fields.get("note"))) {
                final String text = new String(bytes, java.nio.charset.StandardCharsets.ISO_8859_1);
                final int at = text.indexOf("\"sha256\":\"");
                if (at >= 0) {
                    final int digit = at + 10;
                    bytes[digit] = (byte) (bytes[digit] == '0' ? '1' : '0');
                }
            }
            return bytes;
        });

        final Map<String, CaseResult> replayed = recordings.replay(tampered, recordings.select(read, write));

        assertThat(replayed.get(read).verdict()).isEqualTo(Verdict.INCONCLUSIVE);
        assertThat(replayed.get(read).reason()).contains("memory bytes of control call #",
            "do not match the digest of its record");
        assertThat(replayed.get(write).verdict()).isEqualTo(Verdict.INCONCLUSIVE);
        assertThat(replayed.get(write).reason()).contains("(writeMemory) differs from the recording: args.data: "
            + "recorded {\"length\":");
    }

    @Test
    void aFrameOfTheDeviceEditedInTheRecordingIsJudgedAgain() throws Exception {
        // the replay recomputes verdicts from the recorded frames, it does not copy the recorded verdicts
        final String id = plan.stream().filter(p -> p.id().startsWith("ACK-001")).findFirst().orElseThrow().id();
        assertThat(recorded.get(id).verdict()).isEqualTo(Verdict.PASS);
        final Path tampered = dir.resolve("device-frame.pcapng");
        Recordings.copy(evidence, tampered, null, (fields, bytes) -> {
            if (id.equals(fields.get("case")) && "from-dut".equals(fields.get("dir"))
                && "1".equals(fields.get("index"))) {
                bytes[bytes.length - 1] ^= 0x01; // the ICRC no longer matches
            }
            return bytes;
        });

        final CaseResult replayed = recordings.replay(tampered, recordings.select(id)).get(id);

        assertThat(replayed.verdict()).as(replayed.reason()).isEqualTo(Verdict.FAIL);
    }

    @Test
    void aCaseTheRecordingDoesNotHoldIsInconclusive() throws Exception {
        final List<Runner.Planned> other = recordings.select("HDR-004");
        assertThat(other).isNotEmpty();

        final Map<String, CaseResult> replayed = recordings.replay(evidence, other);

        assertThat(replayed.values()).allSatisfy(r -> {
            assertThat(r.verdict()).isEqualTo(Verdict.INCONCLUSIVE);
            assertThat(r.reason()).startsWith("the recording holds nothing of " + r.id());
        });
    }

    @Test
    void aRecordingOfAnotherSpecificationVersionIsRefusedNamingTheFile() throws Exception {
        final Path other = dir.resolve("other-spec.pcapng");
        final Map<String, String> section;
        try (org.metaroce.mrct.wire.capture.CaptureReader reader =
                 org.metaroce.mrct.wire.capture.CaptureReader.open(evidence)) {
            section = new LinkedHashMap<>(EvidenceComment.parse(reader.sectionComment()));
        }
        section.put("spec", "0.9-draft");
        Recordings.copy(evidence, other, EvidenceComment.format(section), (fields, bytes) -> bytes);

        assertThatThrownBy(() -> ReplayAdapter.open(other, recordings.spec.version()))
            .isInstanceOfSatisfying(SpecVersionMismatchException.class, e -> {
                assertThat(e.recorded()).isEqualTo("0.9-draft");
                assertThat(e.expected()).isEqualTo(recordings.spec.version());
                assertThat(e.file()).isEqualTo(other);
                assertThat(e.getMessage()).contains(other.toString(), "0.9-draft", recordings.spec.version());
            });
        // the untouched recording opens
        ReplayAdapter.open(evidence, recordings.spec.version()).close();
    }

    @Test
    void aFileThatIsNotMrctEvidenceIsRefused() throws Exception {
        final Path notEvidence = dir.resolve("plain.pcapng");
        Recordings.copy(evidence, notEvidence, "captured by hand", (fields, bytes) -> bytes);
        assertThatThrownBy(() -> ReplayAdapter.open(notEvidence, recordings.spec.version()))
            .isInstanceOf(RecordingException.class).isNotInstanceOf(SpecVersionMismatchException.class)
            .hasMessageContaining(notEvidence.toString()).hasMessageContaining("not mrct evidence");
        assertThatThrownBy(() -> ReplayAdapter.open(dir.resolve("missing.pcapng"), recordings.spec.version()))
            .isInstanceOf(RecordingException.class).hasMessageContaining("no such file");
    }

    @Test
    void controlRecordsEndWithTheirErrorSoThatTheCaptureAnalysisFindsThem() throws Exception {
        // mrct analyze reads the QP attributes of createQp/modifyQp records that end with "error":null}
        int calls = 0;
        try (org.metaroce.mrct.wire.capture.CaptureReader reader =
                 org.metaroce.mrct.wire.capture.CaptureReader.open(evidence)) {
            while (reader.next()) {
                if (!"control".equals(EvidenceComment.parse(reader.comment()).get("dir"))) {
                    continue;
                }
                final byte[] json = new byte[reader.capturedLength()];
                reader.buffer().get(reader.offset(), json);
                final String text = new String(json, java.nio.charset.StandardCharsets.UTF_8);
                assertThat(text).contains("\"framesBefore\":").matches(".*\"error\":(null|\".*\")}");
                calls++;
            }
        }
        assertThat(calls).isGreaterThan(plan.size());
    }

    private static long toDutFrames(final String id) {
        return recorded.get(id).evidence().stream()
            .filter(f -> f.direction() == org.metaroce.mrct.harness.result.Direction.TO_DUT).count();
    }

    /** The evidence index of the {@code n}th (0-based) frame the harness sent in case {@code id}. */
    private static int toDutFrameIndex(final String id, final int n) {
        return recorded.get(id).evidence().stream()
            .filter(f -> f.direction() == org.metaroce.mrct.harness.result.Direction.TO_DUT)
            .skip(n).findFirst().orElseThrow().index();
    }

    /** Cases whose verdict, reason or failure (rule, step, frame) differ, one line each. */
    private static List<String> differences(final Map<String, CaseResult> expected,
                                            final Map<String, CaseResult> actual) {
        final List<String> out = new ArrayList<>();
        assertThat(actual.keySet()).containsExactlyElementsOf(expected.keySet());
        for (final Map.Entry<String, CaseResult> entry : expected.entrySet()) {
            final CaseResult want = entry.getValue();
            final CaseResult got = actual.get(entry.getKey());
            if (want.verdict() != got.verdict() || !Objects.equals(want.reason(), got.reason())
                || !Objects.equals(failure(want), failure(got))) {
                out.add(entry.getKey() + ": recorded " + want.verdict() + " (" + want.reason() + "), replayed "
                    + got.verdict() + " (" + got.reason() + ")");
            }
        }
        return out;
    }

    private static String failure(final CaseResult result) {
        return result.failure() == null ? null : result.failure().rule() + " step " + result.failure().step()
            + " frame " + result.failure().frame();
    }
}
