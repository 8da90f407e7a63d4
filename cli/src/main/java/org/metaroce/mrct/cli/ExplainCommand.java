package org.metaroce.mrct.cli;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.metaroce.mrct.harness.cases.CaseDef;
import org.metaroce.mrct.harness.cases.CaseLoadException;
import org.metaroce.mrct.harness.cases.CaseLoader;
import org.metaroce.mrct.harness.cases.Expr;
import org.metaroce.mrct.harness.engine.Runner;
import org.metaroce.mrct.harness.profile.DeviceProfile;
import org.metaroce.mrct.harness.profile.ProfileLoader;
import org.metaroce.mrct.harness.spec.Rule;
import org.metaroce.mrct.harness.spec.Specification;
import org.metaroce.mrct.harness.yaml.YamlProblem;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/**
 * {@code mrct explain CASE-ID}: the case file and the text of every rule it cites. Takes every ID that {@code mrct list},
 * the reports and the terminal print: a case's ID, a row of its matrix ({@code CC-011-x[alpha_init=1,pmtu=256]}, whose
 * values are shown), a generated case ({@code GEN-3}, {@code GEN-R-3}; {@code --seed} as the run's, which the reports
 * record) and, with {@code --cases}, the cases of other folders or files (a shrunk case).
 */
@Command(name = "explain", mixinStandardHelpOptions = true,
    description = {"Shows a case and the text of the rules it covers.",
        "Exit status: 0 shown, 2 no such case or a case file does not load."})
final class ExplainCommand implements Callable<Integer> {
    @ParentCommand
    private Main main;

    @Parameters(paramLabel = "CASE-ID", description = "the case's ID as mrct list or a report prints it: with a "
        + "parameter row ([k=v,...]) or without, or GEN-n / GEN-R-n")
    private String id;

    @Option(names = "--cases", paramLabel = "PATH", description = "case folders or files instead of the bundled cases "
        + "(as for mrct run)")
    private List<Path> caseDirs = new ArrayList<>();

    @Option(names = "--seed", defaultValue = "1", paramLabel = "N", description = "the run seed of a generated case "
        + "(default 1, mrct run's; report.json has it as run.seed)")
    private long seed;

    @Mixin
    private ProfileOption profileOption = new ProfileOption();

    @Override
    public Integer call() {
        final Specification spec = Specification.bundled();
        final CaseLoader loader = new CaseLoader(spec);
        final List<CaseDef> cases;
        try {
            cases = caseDirs.isEmpty() ? loader.loadBundled() : loader.load(caseDirs);
        } catch (CaseLoadException e) {
            main.err().println("mrct explain: " + e.getMessage());
            return RunCommand.HARNESS_ERROR;
        }
        for (final Runner.Planned planned : Runner.plan(cases)) {
            if (planned.id().equals(id)) {
                return show(spec, planned.def(), planned.row(), source(planned.def()));
            }
        }
        for (final CaseDef def : cases) {
            if (def.id().equals(id)) {
                return show(spec, def, Map.of(), source(def));
            }
        }
        final DeviceProfile profile;
        try {
            profile = profileOption.load(spec); // generated cases depend on the profile, as in mrct run
        } catch (ProfileLoader.ProfileException | RunCommand.UsageProblem e) {
            main.err().println("mrct explain: " + e.getMessage().replace("\n", "\n  "));
            return RunCommand.HARNESS_ERROR;
        }
        final String generated = new GeneratedCases(seed, 0, x -> true, d -> true, spec, profile).text(id);
        if (generated != null) {
            final List<YamlProblem> problems = new ArrayList<>();
            final CaseDef def = loader.parse("gen/" + id + ".yaml", "GEN", generated, problems);
            if (def == null) {
                main.err().println("mrct explain: generated case " + id + " does not load: " + problems);
                return RunCommand.HARNESS_ERROR;
            }
            return show(spec, def, Map.of(), generated);
        }
        main.err().println("mrct explain: no case " + id + (caseDirs.isEmpty() ? " among the bundled cases" : " in "
            + caseDirs) + " (mrct list shows the IDs; generated ones are GEN-n and GEN-R-n)");
        return RunCommand.HARNESS_ERROR;
    }

    private int show(final Specification spec, final CaseDef def, final Map<String, Expr> row, final String text) {
        main.out().println(id + ": " + def.title());
        if (!row.isEmpty()) {
            main.out().println("  the row of case " + def.id() + " with " + row);
        }
        main.out().println();
        for (final String ruleId : def.rules()) {
            final Rule rule = spec.rule(ruleId);
            if (rule == null) {
                main.out().println(ruleId + "  [no such rule in specification " + spec.version() + "]");
                main.out().println();
                continue;
            }
            main.out().println(rule.label() + "  [" + rule.section() + "]");
            main.out().println("  " + rule.text());
            main.out().println();
        }
        main.out().println("--- " + def.file());
        if (text == null) {
            main.err().println("mrct explain: cannot read " + def.file());
            return RunCommand.HARNESS_ERROR;
        }
        main.out().print(text.endsWith("\n") ? text : text + "\n");
        return ExitStatus.OK;
    }

    /** The text of a case's file, or null when it cannot be read. */
    private String source(final CaseDef def) {
        try {
            if (caseDirs.isEmpty()) {
                try (InputStream in = CaseLoader.class.getClassLoader().getResourceAsStream(CaseLoader.BUNDLED_ROOT
                    + "/" + def.file())) {
                    return in == null ? null : new String(in.readAllBytes(), StandardCharsets.UTF_8);
                }
            }
            for (final Path path : caseDirs) {
                final Path file = Files.isRegularFile(path) ? path : path.resolve(def.file());
                if (Files.isRegularFile(file) && (file != path || String.valueOf(path.getFileName())
                    .equals(def.file()))) {
                    return Files.readString(file, StandardCharsets.UTF_8);
                }
            }
        } catch (IOException e) {
            return null;
        }
        return null;
    }
}
