package org.metaroce.mrct.replay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metaroce.mrct.harness.engine.RunContext;
import org.metaroce.mrct.harness.engine.Runner;
import org.metaroce.mrct.harness.result.RunInfo;
import org.metaroce.mrct.reference.ReferencePeer;
import org.metaroce.mrct.spi.Adapter;
import org.metaroce.mrct.spi.AdapterOptions;
import org.metaroce.mrct.spi.AdapterProvider;
import org.metaroce.mrct.spi.AdapterRequest;
import org.metaroce.mrct.spi.AdapterSetup;
import org.metaroce.mrct.spi.AdapterSetupException;

/** The replay adapter as the command line reaches it: through its {@link AdapterProvider}. */
class ReplayAdapterProviderTest {
    private final ReplayAdapterProvider provider = new ReplayAdapterProvider();
    private final List<String> out = new ArrayList<>();
    private final List<String> warnings = new ArrayList<>();

    private AdapterSetup configure(final Recordings recordings, final String from) throws AdapterSetupException {
        return provider.configure(new AdapterRequest(recordings.spec, new AdapterOptions(provider.options(),
            from == null ? Map.of() : Map.of("--from", from)), null, out::add, warnings::add));
    }

    @Test
    void theServiceLoaderFindsIt() {
        final List<AdapterProvider> found = new ArrayList<>();
        ServiceLoader.load(AdapterProvider.class).forEach(found::add);
        assertThat(found).anyMatch(p -> p instanceof ReplayAdapterProvider && p.name().equals("replay"));
        assertThat(provider.traits()).isEmpty(); // a virtual clock, and one recording: not repeatable
        assertThat(provider.options()).extracting(o -> o.name()).containsExactly("--from");
    }

    @Test
    void aRecordedRunFixesTheSeedAndTimingAndEndsWithTheComparison(@TempDir final Path dir) throws Exception {
        final Recordings recordings = new Recordings();
        final List<Runner.Planned> plan = recordings.select("ACK-001", "GEN-0");
        recordings.record(dir.resolve("run"), plan, Set.of());
        final Path evidence = dir.resolve("run/evidence.pcapng");

        final AdapterSetup setup = configure(recordings, evidence.toString());
        assertThat(out).singleElement().asString().startsWith("replay of " + evidence + ": the run of "
            + "2026-01-02T03:04:05Z against the reference adapter").endsWith("seed " + Recordings.SEED
            + " (the recorded run's)");
        assertThat(setup.recorded()).isEqualTo(new AdapterSetup.Recorded(Recordings.SEED, false,
            new RunInfo.Timing(Recordings.EXPECT_TIMEOUT_NS, 0, 0), false));
        setup.checkProfile(recordings.profile);
        assertThat(out.get(1)).isEqualTo("replay: DUT profile " + recordings.profile.name() + " (sha256 "
            + recordings.profile.sha256() + ", the recorded run's)");
        try (Adapter adapter = setup.open(recordings.profile)) {
            assertThat(adapter).isInstanceOf(ReplayAdapter.class);
            final Runner runner = new Runner(new RunContext(adapter, recordings.spec, recordings.profile,
                Recordings.SEED, false, Recordings.EXPECT_TIMEOUT_NS, 0, 0, ReferencePeer.FACTORY),
                List.of(setup.listener()), Clock.systemUTC());
            final List<Runner.Planned> allButLast = plan.subList(0, plan.size() - 1);
            runner.run(new RunInfo("test", recordings.spec.version(), adapter.name(), "", "", "",
                recordings.profile.name(), recordings.profile.sha256(), List.of(), Map.of(), Recordings.SEED, false,
                null, List.of(), allButLast.size(), Instant.now()), allButLast, result -> false, null);
        }
        setup.afterRun();
        assertThat(out.get(2)).isEqualTo("replay: " + (plan.size() - 1) + " of " + plan.size()
            + " recorded cases gave their recorded verdict");
        assertThat(out.get(3)).startsWith("replay: 1 recorded case(s) were not run").endsWith(": GEN-0");
        assertThat(warnings).isEmpty();
    }

    @Test
    void withoutFromOrWithAFileThatIsNotEvidenceItIsRefused(@TempDir final Path dir) throws Exception {
        final Recordings recordings = new Recordings();
        assertThatThrownBy(() -> configure(recordings, null)).isInstanceOf(AdapterSetupException.class)
            .hasMessage("--adapter replay needs --from EVIDENCE (the evidence.pcapng of the run to replay)");
        assertThatThrownBy(() -> configure(recordings, dir.resolve("missing.pcapng").toString()))
            .isInstanceOf(RecordingException.class).hasMessageContaining("missing.pcapng");
        assertThat(out).isEmpty();
    }
}
