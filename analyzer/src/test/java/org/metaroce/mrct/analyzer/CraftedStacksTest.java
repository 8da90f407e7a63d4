package org.metaroce.mrct.analyzer;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.metaroce.mrct.harness.profile.DeviceProfile;
import org.metaroce.mrct.harness.profile.ProfileLoader;
import org.metaroce.mrct.harness.result.CaseResult;
import org.metaroce.mrct.harness.result.Overall;
import org.metaroce.mrct.harness.result.Verdict;
import org.metaroce.mrct.testing.ExternalTool;
import org.metaroce.mrct.testing.Fixtures;

/**
 * Real RoCEv2 traffic judged by its own rules (MetaRoCE v1 Appendix F): captures crafted with scapy from what each
 * stack is documented to send ({@code src/test/resources/scapy/rocev2_stacks.py} names the source of every behaviour)
 * analyse without a violation, their out-of-scope frames (UC, UD, connection-manager MADs on QP1, datagrams that are
 * no BTH) are NOT_APPLICABLE with the reason, the RC traffic beside them is still judged, and a real RC violation among
 * them is still found. Generated at test time by Debian's {@code /usr/bin/python3}, for which python3-scapy is
 * installed; skipped with the reason where it is not.
 */
class CraftedStacksTest {
    private static final String PYTHON = "/usr/bin/python3";

    @TempDir
    static Path dir;

    @BeforeAll
    static void craft() throws IOException {
        ExternalTool.assumeWorks("the crafted RoCEv2 captures need python3-scapy", PYTHON, "-c",
            "import scapy.contrib.roce");
        final Path script = dir.resolve("rocev2_stacks.py");
        try (InputStream in = CraftedStacksTest.class.getResourceAsStream("/scapy/rocev2_stacks.py")) {
            Files.copy(in, script);
        }
        final ExternalTool.Result result = ExternalTool.run(300, PYTHON, script.toString(),
            dir.resolve("captures").toString());
        assertThat(result.exitCode()).as(result.stderr()).isZero();
    }

    private static Analyses.Result analyse(final String name) {
        return Analyses.run(dir.resolve("captures").resolve(name + ".pcap"));
    }

    private static Map<String, CaseResult> outOfScope(final Analyses.Result result) {
        return result.cases().stream().filter(c -> c.id().startsWith("out-of-scope/"))
            .collect(Collectors.toMap(c -> c.id().substring("out-of-scope/".length()), c -> c));
    }

    @ParameterizedTest
    @ValueSource(strings = {"rxe_rc", "rxe_mpe", "hwnic_rc", "ecn_cnp", "ecn_no_cnp", "uc_traffic", "ud_traffic", "rdma_cm",
        "lookalikes"})
    void legalRoCEv2TrafficAnalysesWithoutAViolation(final String name) {
        final Analyses.Result result = analyse(name);
        assertThat(result.with(Verdict.FAIL)).as(name + "\n" + result.describe()).isEmpty();
        assertThat(result.with(Verdict.INCONCLUSIVE)).as(name + "\n" + result.describe()).isEmpty();
        assertThat(result.outcome().violated()).isFalse();
        assertThat(result.summary().overall()).isEqualTo(Overall.CONFORMANT);
        assertThat(result.cases()).noneMatch(c -> c.verdict() == Verdict.FAIL || c.verdict() == Verdict.ERROR);
    }

    @Test
    void aHardwareNicsTver0FramesAreJudgedByWhatRoCEv2Requires() {
        final Analyses.Result result = analyse("hwnic_rc");
        // MigReq 1, source ports below 0xC000, ACK credit counts: judged and passed, not skipped
        assertThat(result.of("MR-WIRE-013")).hasSize(2).allMatch(c -> c.verdict() == Verdict.PASS);
        assertThat(result.of("MR-HDR-008")).hasSize(2).allMatch(c -> c.verdict() == Verdict.PASS);
        assertThat(result.of("MR-WIRE-010")).as("MR-WIRE-010 does not bind TVer 0 frames").isEmpty();
        assertThat(result.of("MR-RD-003")).singleElement().satisfies(c -> assertThat(c.verdict())
            .isEqualTo(Verdict.PASS));
        assertThat(outOfScope(result)).isEmpty();
    }

    @Test
    void flushAndAtomicWriteOfPlainRoCEv2TrafficAreJudgedByTheirInfiniBandLayout() {
        // FLUSH (0x1C) and ATOMIC WRITE (0x1D), InfiniBand's memory placement extensions, as Linux rxe sends them:
        // in scope (Appendix F.1: RC opcodes), one PSN each, answered by an empty RDMA READ RESPONSE ONLY
        final Analyses.Result result = analyse("rxe_mpe");
        assertThat(outOfScope(result)).isEmpty();
        assertThat(result.of("MR-LEG-001")).singleElement().satisfies(c -> {
            assertThat(c.verdict()).isEqualTo(Verdict.PASS);
            assertThat(c.reason()).startsWith("13 frames checked");
        });
        assertThat(result.of("MR-REQ-002")).isNotEmpty().allMatch(c -> c.verdict() == Verdict.PASS);
        assertThat(result.of("MR-RD-002")).isNotEmpty().allMatch(c -> c.verdict() == Verdict.PASS);
        // their layout is still judged: an ATOMIC WRITE carries exactly 8 bytes
        final Analyses.Result bad = analyse("rxe_mpe_long_atomic_write");
        assertThat(bad.with(Verdict.FAIL)).singleElement().satisfies(c -> {
            assertThat(c.rules()).containsExactly("MR-LEG-001");
            assertThat(c.reason()).contains("first at frame 8", "ATOMIC_WRITE at PSN 1179652");
            assertThat(c.failure().diffs()).singleElement().satisfies(d -> {
                assertThat(d.field()).isEqualTo("payload_len");
                assertThat(d.actual()).isEqualTo("16");
            });
        });
    }

    @Test
    void aMetaRoceDeviceNeverSendsFlushOrAtomicWrite() throws Exception {
        // with a profile the senders are MetaRoCE devices, whose legacy QPs send only the opcodes of Table D-4
        final DeviceProfile profile = ProfileLoader.load(Fixtures.root().resolve("fixtures/profiles/reference.yaml"),
            Analyses.SPEC);
        final Analyses.Result result = Analyses.run(dir.resolve("captures").resolve("rxe_mpe.pcap"),
            CaptureAnalyzer.Options.defaults().withProfile(profile));
        assertThat(result.of("MR-LEG-001")).singleElement().satisfies(c -> {
            assertThat(c.verdict()).isEqualTo(Verdict.FAIL);
            assertThat(c.reason()).startsWith("3 violations").contains("ATOMIC_WRITE", "Table D-4");
        });
    }

    @Test
    void ceMarksAndTheCnpsThatAnswerThemAreJudged() {
        final Analyses.Result result = analyse("ecn_cnp");
        assertThat(result.of("MR-HDR-012")).singleElement().satisfies(c -> {
            assertThat(c.verdict()).isEqualTo(Verdict.PASS);
            assertThat(c.reason()).startsWith("2 CNPs checked");
        });
        assertThat(result.of("MR-CC-003")).singleElement().satisfies(c -> assertThat(c.verdict())
            .isEqualTo(Verdict.PASS));
    }

    @Test
    void ucAndUdFramesAreNotApplicableWithTheReason() {
        final Analyses.Result uc = analyse("uc_traffic");
        assertThat(uc.checks()).isEmpty();
        assertThat(outOfScope(uc)).containsOnlyKeys("uc").extractingByKey("uc").satisfies(c -> {
            assertThat(c.verdict()).isEqualTo(Verdict.NOT_APPLICABLE);
            assertThat(c.reason()).startsWith("7 frames outside MetaRoCE's scope").contains("unreliable connected");
            assertThat(c.parameters()).containsEntry("frames", 7L);
            assertThat(c.notes()).anyMatch(n -> n.equals("10.9.0.1 -> 10.9.0.2 qp 0x000042: 7 frames"));
        });
        final Analyses.Result ud = analyse("ud_traffic");
        assertThat(ud.checks()).isEmpty();
        assertThat(outOfScope(ud)).containsOnlyKeys("ud").extractingByKey("ud").satisfies(c -> {
            assertThat(c.reason()).startsWith("8 frames outside").contains("unreliable datagram");
            assertThat(c.notes()).hasSize(3);
        });
    }

    @Test
    void anRdmaCmConnectionsMadsAreNotJudgedAndItsRcTrafficIs() {
        final Analyses.Result result = analyse("rdma_cm");
        assertThat(outOfScope(result)).containsOnlyKeys("mad").extractingByKey("mad").satisfies(c -> {
            assertThat(c.reason()).startsWith("5 frames").contains("QP1", "connection manager");
            assertThat(c.notes()).contains("management datagrams: CM REQ x1 CM REP x1 CM RTU x1 CM DREQ x1 CM DREP x1");
        });
        assertThat(result.outcome().files().get(0).connections()).isEqualTo(1);
        assertThat(result.of("MR-LEG-001")).singleElement().satisfies(c -> {
            assertThat(c.verdict()).isEqualTo(Verdict.PASS);
            assertThat(c.reason()).startsWith("7 frames checked");
        });
        assertThat(result.of("MR-LEG-002")).isNotEmpty().allMatch(c -> c.verdict() == Verdict.PASS);
        assertThat(result.of("MR-RD-002")).isNotEmpty().allMatch(c -> c.verdict() == Verdict.PASS);
    }

    @Test
    void datagramsThatAreNoBthAreLookAlikes() {
        final Analyses.Result result = analyse("lookalikes");
        assertThat(outOfScope(result)).containsOnlyKeys("not-bth").extractingByKey("not-bth").satisfies(c -> {
            assertThat(c.reason()).startsWith("3 frames").contains("8 bytes of payload");
            assertThat(c.notes()).hasSize(4);
        });
        assertThat(result.of("MR-WIRE-014")).singleElement().satisfies(c -> assertThat(c.reason())
            .startsWith("2 frames checked"));
    }

    @Test
    void aRealRcViolationAmongOutOfScopeTrafficIsStillFound() {
        final Analyses.Result result = analyse("mixed_with_rc_violation");
        assertThat(result.outcome().violated()).isTrue();
        assertThat(result.with(Verdict.FAIL)).singleElement().satisfies(c -> {
            assertThat(c.rules()).containsExactly("MR-WIRE-013");
            assertThat(c.reason()).contains("first at frame 7", "RDMA_WRITE_LAST", "bth.resv7 1");
            assertThat(c.failure().diffs()).singleElement().satisfies(d -> assertThat(d.field())
                .isEqualTo("bth.resv7"));
        });
        assertThat(outOfScope(result)).containsOnlyKeys("uc", "ud", "mad", "not-bth");
        assertThat(outOfScope(result).values()).allMatch(c -> c.verdict() == Verdict.NOT_APPLICABLE);
        assertThat(result.summary().overall()).isEqualTo(Overall.NON_CONFORMANT);
    }

    @Test
    void theSoftRoceCapturesStillAnalyseWithoutAViolation() {
        cleanAndInScope(Fixtures.softRoceCaptures());
    }

    @Test
    void theSharedCapturesStillAnalyseWithoutAViolation() {
        cleanAndInScope(Fixtures.sharedCaptures());
    }

    /** Plain RC traffic of Linux rxe hosts, analysed as {@code mrct analyze} does by default: clean, nothing left out. */
    private static void cleanAndInScope(final List<Path> captures) {
        assertThat(captures).isNotEmpty();
        for (final Path capture : captures) {
            final Analyses.Result result = Analyses.run(capture);
            assertThat(result.with(Verdict.FAIL)).as(capture + "\n" + result.describe()).isEmpty();
            assertThat(outOfScope(result)).as(capture + ": plain RC traffic, nothing out of scope").isEmpty();
            assertThat(result.checks()).isNotEmpty();
        }
    }
}
