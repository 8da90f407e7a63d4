package org.metaroce.mrct.replay;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import org.metaroce.mrct.harness.profile.DeviceProfile;
import org.metaroce.mrct.harness.result.CaseResult;
import org.metaroce.mrct.harness.result.RunListener;
import org.metaroce.mrct.harness.result.Verdict;
import org.metaroce.mrct.spi.Adapter;
import org.metaroce.mrct.spi.AdapterOption;
import org.metaroce.mrct.spi.AdapterProvider;
import org.metaroce.mrct.spi.AdapterRequest;
import org.metaroce.mrct.spi.AdapterSetup;
import org.metaroce.mrct.spi.AdapterSetupException;

/**
 * {@code --adapter replay --from EVIDENCE}: a recorded run played back as the device. The recording is opened when
 * the adapter is configured (refused when it is not mrct evidence of this specification version), since its seed
 * decides the run's generated cases; the run takes the recorded seed, strictness and timing, must use the recorded
 * DUT profile, and ends with how the replayed verdicts compare with the recorded ones.
 */
public final class ReplayAdapterProvider implements AdapterProvider {
    private static final List<AdapterOption> OPTIONS = List.of(AdapterOption.of("--from", "EVIDENCE",
        "replay: the evidence.pcapng of the run to re-evaluate; its seed is used, and --profile must be its profile"));

    @Override
    public String name() {
        return ReplayAdapter.NAME;
    }

    @Override
    public String description() {
        return "a recorded run: --from";
    }

    @Override
    public int position() {
        return 20;
    }

    @Override
    public List<AdapterOption> options() {
        return OPTIONS;
    }

    @Override
    public AdapterSetup configure(final AdapterRequest request) throws AdapterSetupException {
        final Path from = request.options().path("--from");
        if (from == null) {
            throw new AdapterSetupException("--adapter replay needs --from EVIDENCE (the evidence.pcapng of the run "
                + "to replay)");
        }
        final ReplayAdapter replay = ReplayAdapter.open(from, request.spec().version());
        final RecordedRun run = replay.recording();
        request.out().accept("replay of " + from + ": the run of " + (run.start() == null ? "an unknown time"
            : run.start()) + " against the " + run.adapter() + " adapter (" + String.join(" ",
                Objects.toString(run.vendor(), ""), Objects.toString(run.model(), ""),
                Objects.toString(run.firmware(), "")).trim() + (run.fault() == null ? "" : ", fault " + run.fault())
            + "), " + run.cases().size() + " cases recorded; seed " + run.seed() + " (the recorded run's)");
        for (final String note : run.notes()) {
            request.warnings().accept("replay: " + note);
        }
        return new Setup(replay, request.out(), request.warnings());
    }

    /** One recording opened for a run. */
    private static final class Setup implements AdapterSetup {
        private final ReplayAdapter replay;
        private final Consumer<String> out;
        private final Consumer<String> warnings;
        private final Map<String, Verdict> replayed = new LinkedHashMap<>();

        Setup(final ReplayAdapter replay, final Consumer<String> out, final Consumer<String> warnings) {
            this.replay = replay;
            this.out = out;
            this.warnings = warnings;
        }

        @Override
        public Recorded recorded() {
            final RecordedRun run = replay.recording();
            // the recorded run gated on SHOULD failures: the same verdicts need the same rule; a recording without
            // its timing keeps the timing defaults of its device (the reference NIC ran on virtual time)
            return new Recorded(run.seed(), Boolean.TRUE.equals(run.strict()), run.timing(),
                !"reference".equals(run.adapter()));
        }

        @Override
        public void checkProfile(final DeviceProfile profile) throws AdapterSetupException {
            final String note = replay.checkProfile(profile.name(), profile.sha256());
            if (note != null) {
                warnings.accept("replay: " + note);
            } else {
                out.accept("replay: DUT profile " + profile.name() + " (sha256 " + profile.sha256()
                    + ", the recorded run's)");
            }
        }

        @Override
        public Adapter open(final DeviceProfile profile) {
            return replay;
        }

        @Override
        public String fault() {
            return replay.recording().fault();
        }

        @Override
        public RunListener listener() {
            return new RunListener() {
                @Override
                public void caseFinished(final CaseResult result) {
                    replayed.put(result.id(), result.verdict());
                }
            };
        }

        /** How the replayed verdicts compare with the recorded ones, case by case. */
        @Override
        public void afterRun() {
            final List<String> differ = new ArrayList<>();
            int same = 0;
            for (final Map.Entry<String, Verdict> entry : replayed.entrySet()) {
                final String recorded = replay.recordedVerdict(entry.getKey());
                if (recorded == null) {
                    if (entry.getValue() != Verdict.NOT_APPLICABLE) {
                        differ.add(entry.getKey() + ": not in the recording, replayed " + entry.getValue());
                    }
                } else if (recorded.equals(entry.getValue().name())) {
                    same++;
                } else {
                    final String unused = replay.unused(entry.getKey());
                    differ.add(entry.getKey() + ": recorded " + recorded + ", replayed " + entry.getValue()
                        + (unused == null ? "" : " (" + unused + ")"));
                }
            }
            final List<String> notRun = new ArrayList<>();
            for (final String id : replay.recording().cases()) {
                if (!replayed.containsKey(id)) {
                    notRun.add(id);
                }
            }
            out.accept("replay: " + same + " of " + replay.recording().cases().size() + " recorded cases gave "
                + "their recorded verdict" + (differ.isEmpty() ? "" : "; " + differ.size() + " differ:"));
            differ.forEach(line -> out.accept("  " + line));
            if (!notRun.isEmpty()) {
                out.accept("replay: " + notRun.size() + " recorded case(s) were not run (give the recorded run's "
                    + "--select, --exclude, --cases and --generated): " + String.join(", ", notRun.subList(0,
                        Math.min(10, notRun.size()))) + (notRun.size() > 10 ? ", ..." : ""));
            }
        }
    }
}
