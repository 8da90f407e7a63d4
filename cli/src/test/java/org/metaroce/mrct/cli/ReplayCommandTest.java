package org.metaroce.mrct.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metaroce.mrct.harness.result.RunInfo;
import org.metaroce.mrct.harness.result.RunListener;
import org.metaroce.mrct.reports.ReportFormat;
import org.metaroce.mrct.reports.Reports;
import org.metaroce.mrct.testing.ExternalTool;

/**
 * {@code mrct run --adapter replay --from evidence.pcapng}: the whole bundled suite (generated cases included) is
 * recorded once against the reference NIC and replayed once, and every case gets its recorded verdict and reason; a
 * faulty device's failures reproduce with their rules; a recording of another specification version, another seed or
 * another DUT profile is refused.
 */
class ReplayCommandTest {
    @TempDir
    static Path dir;

    private static Path recorded;

    @BeforeAll
    static void recordTheWholeSuite() {
        recorded = dir.resolve("recorded");
        final Mrct.Run run = Mrct.run("run", "--quiet", "--report-dir", recorded.toString(), "--format",
            "JSON,EVIDENCE");
        assertThat(run.status()).as(run.err()).isZero();
    }

    @Test
    void replayingTheWholeSuiteGivesEveryCaseItsRecordedVerdict() throws Exception {
        final Path replayed = dir.resolve("replayed");
        final Mrct.Run run = Mrct.run("run", "--quiet", "--adapter", "replay", "--from",
            recorded.resolve("evidence.pcapng").toString(), "--report-dir", replayed.toString(), "--format", "JSON");

        assertThat(run.status()).as(run.out() + run.err()).isZero();
        final Map<String, Verdicts.Outcome> before = Verdicts.read(recorded);
        final Map<String, Verdicts.Outcome> after = Verdicts.read(replayed);
        assertThat(before).hasSizeGreaterThan(400).containsKeys("GEN-0", "GEN-19", "GEN-R-0", "GEN-R-19");
        assertThat(after.keySet()).containsExactlyElementsOf(before.keySet());
        assertThat(Verdicts.differences(before, after, reason -> false)).isEmpty();
        assertThat(after).isEqualTo(before);
        assertThat(run.out()).contains("seed 1 (the recorded run's)", "against the reference adapter",
            "replay: " + before.size() + " of " + before.size() + " recorded cases gave their recorded verdict\n");
        final JsonNode report = new ObjectMapper().readTree(replayed.resolve("report.json").toFile());
        assertThat(report.path("run").path("adapter").asText()).isEqualTo("replay");
        assertThat(report.path("run").path("seed").asText()).isEqualTo("1");
    }

    @Test
    void wiresharkReadsEveryPacketOfTheRecording() throws Exception {
        // before the evidence capped its blocks, capinfos and tshark stopped at a 1 MiB control record of QP-011
        ExternalTool.assumeWorks("the evidence is read with Wireshark's tools", "tshark", "--version");
        ExternalTool.assumeWorks("the evidence is read with Wireshark's tools", "capinfos", "-h");
        assertThat(WiresharkReads.assertEveryPacketRead(recorded.resolve("evidence.pcapng"))).isGreaterThan(300_000);
    }

    @Test
    void theFailuresOfAFaultyDeviceReproduceWithTheirRules() throws Exception {
        final Path faulty = dir.resolve("faulty");
        final Mrct.Run record = Mrct.run("run", "--quiet", "--fault", "go-back-n-retransmit", "-s", "RTX-00", "-s",
            "ACK-002", "--seed", "7", "--expect-timeout", "3ms", "--report-dir", faulty.toString(), "--format",
            "JSON,EVIDENCE");
        assertThat(record.status()).as(record.err()).isEqualTo(1);
        final Path replayed = dir.resolve("faulty-replayed");

        final Mrct.Run run = Mrct.run("run", "--quiet", "--adapter", "replay", "--from",
            faulty.resolve("evidence.pcapng").toString(), "-s", "RTX-00", "-s", "ACK-002",
            "--report-dir", replayed.toString(), "--format", "JSON");

        assertThat(run.status()).as(run.out() + run.err()).isEqualTo(1);
        assertThat(run.out()).contains("fault go-back-n-retransmit", "seed 7 (the recorded run's)");
        final Map<String, String> before = failures(faulty);
        assertThat(before.values()).as("failures of the faulty run").anyMatch(v -> v.startsWith("FAIL MR-RTX-001 "))
            .anyMatch(v -> v.startsWith("PASS"));
        assertThat(failures(replayed)).isEqualTo(before);
        final JsonNode timing = new ObjectMapper().readTree(replayed.resolve("report.json").toFile()).path("run")
            .path("timing");
        assertThat(timing.path("expectTimeoutNs").asLong()).as("the recorded --expect-timeout").isEqualTo(3_000_000);
    }

    @Test
    void aRecordingOfAnotherSpecificationVersionIsRefused() throws IOException {
        final Path other = dir.resolve("other-spec");
        final RunListener reports = Reports.open(other, EnumSet.of(ReportFormat.EVIDENCE), null);
        final RunInfo info = new RunInfo("0.1", "0.9-draft", "reference", "v", "m", "f", "reference.yaml", "00",
            List.of(), Map.of(), 1, false, null, List.of(), 0, Instant.parse("2020-01-01T00:00:00Z"));
        reports.runStarted(info);
        reports.runFinished(info, null);
        final Path file = other.resolve("evidence.pcapng");

        final Mrct.Run run = Mrct.run("run", "--quiet", "--adapter", "replay", "--from", file.toString(),
            "--report-dir", dir.resolve("other-replayed").toString());

        assertThat(run.status()).isEqualTo(2);
        assertThat(run.err()).contains("mrct run: " + file, "recorded against specification version 0.9-draft");
        assertThat(dir.resolve("other-replayed")).doesNotExist();
    }

    @Test
    void theReplayTakesTheRecordedSeedAndProfileOnly() throws IOException {
        final String evidence = recorded.resolve("evidence.pcapng").toString();
        final Mrct.Run seed = Mrct.run("run", "--quiet", "--adapter", "replay", "--from", evidence, "--seed", "5",
            "--report-dir", dir.resolve("seed").toString());
        assertThat(seed.status()).isEqualTo(2);
        assertThat(seed.err()).contains("the replay uses the recorded seed 1");
        final Mrct.Run timeout = Mrct.run("run", "--quiet", "--adapter", "replay", "--from", evidence,
            "--expect-timeout", "5ms", "--report-dir", dir.resolve("timeout").toString());
        assertThat(timeout.status()).isEqualTo(2);
        assertThat(timeout.err()).contains("the replay uses the recorded run's, 2000000 ns");

        final Path profile = dir.resolve("edited.yaml");
        Files.writeString(profile, Files.readString(org.metaroce.mrct.testing.Fixtures.root()
            .resolve("fixtures/profiles/reference.yaml")) + "\n# edited\n");
        final Mrct.Run other = Mrct.run("run", "--quiet", "--adapter", "replay", "--from", evidence, "--profile",
            profile.toString(), "--report-dir", dir.resolve("profile").toString());
        assertThat(other.status()).isEqualTo(2);
        assertThat(other.err()).contains("recorded with the DUT profile reference.yaml", "edited.yaml");

        final Mrct.Run missing = Mrct.run("run", "--quiet", "--adapter", "replay");
        assertThat(missing.status()).isEqualTo(2);
        assertThat(missing.err()).contains("--adapter replay needs --from");
    }

    /** Each case of {@code dir/report.json} as {@code VERDICT RULE} (the rule of its failure, when it failed). */
    private static Map<String, String> failures(final Path dir) throws IOException {
        final Map<String, String> out = new LinkedHashMap<>();
        for (final JsonNode c : new ObjectMapper().readTree(dir.resolve("report.json").toFile()).path("cases")) {
            final JsonNode failure = c.path("failure");
            out.put(c.path("id").asText(), c.path("verdict").asText() + (failure.isObject()
                ? " " + failure.path("rule").asText() + " step " + failure.path("step").asInt() : ""));
        }
        return out;
    }
}
