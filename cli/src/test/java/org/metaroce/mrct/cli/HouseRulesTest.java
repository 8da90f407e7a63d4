package org.metaroce.mrct.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The team's rules about the shape of the code (README "How we write code"), checked on the sources so that a change
 * breaking one fails the build rather than a review: files with one purpose (no main source over 700 lines); the
 * reference NIC shares no code with the checks that judge it; a module's {@code internal} packages are its own.
 */
class HouseRulesTest {
    private static final Path ROOT = Path.of(System.getProperty("mrct.root", "..")).toAbsolutePath().normalize();
    private static final int MAX_LINES = 700;
    private static final Pattern IMPORT = Pattern.compile("^import (?:static )?(org\\.metaroce\\.mrct\\.[\\w.]+);",
        Pattern.MULTILINE);
    private static List<Path> modules;

    @BeforeAll
    static void findModules() throws IOException {
        assertThat(ROOT.resolve("pom.xml")).as("the repository root (-Dmrct.root)").isRegularFile();
        try (Stream<Path> poms = Files.walk(ROOT, 3)) {
            modules = poms.filter(p -> p.getFileName().toString().equals("pom.xml"))
                .map(Path::getParent).filter(m -> Files.isDirectory(m.resolve("src/main/java")))
                .filter(m -> !m.toString().contains("/target")).sorted().toList();
        }
        assertThat(modules).as("modules with main sources").hasSizeGreaterThan(8);
    }

    private static List<Path> mainSources(final Path module) {
        try (Stream<Path> files = Files.walk(module.resolve("src/main/java"))) {
            return files.filter(p -> p.toString().endsWith(".java")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String read(final Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The {@code org.metaroce.mrct...} names a source file imports. */
    private static List<String> imports(final Path file) {
        final List<String> out = new ArrayList<>();
        final Matcher m = IMPORT.matcher(read(file));
        while (m.find()) {
            out.add(m.group(1));
        }
        return out;
    }

    /** The packages a module declares, from its sources. */
    private static List<String> packagesOf(final Path module) {
        final Pattern declaration = Pattern.compile("^package ([\\w.]+);", Pattern.MULTILINE);
        return mainSources(module).stream().map(f -> declaration.matcher(read(f)))
            .filter(Matcher::find).map(m -> m.group(1)).distinct().toList();
    }

    @Test
    void noMainSourceFileIsOver700Lines() {
        final List<String> long_ = new ArrayList<>();
        for (final Path module : modules) {
            for (final Path file : mainSources(module)) {
                final long lines = read(file).lines().count();
                if (lines > MAX_LINES) {
                    long_.add(ROOT.relativize(file) + ": " + lines + " lines");
                }
            }
        }
        assertThat(long_).as("main source files over " + MAX_LINES + " lines: split them by purpose").isEmpty();
    }

    @Test
    void theReferenceNicImportsNothingThatJudges() {
        final Path reference = ROOT.resolve("adapters/reference");
        final List<String> judging = List.of("org.metaroce.mrct.oracle", "org.metaroce.mrct.harness.engine",
            "org.metaroce.mrct.harness.blame", "org.metaroce.mrct.harness.result", "org.metaroce.mrct.analyzer");
        final List<String> found = new ArrayList<>();
        for (final Path file : mainSources(reference)) {
            for (final String name : imports(file)) {
                if (judging.stream().anyMatch(p -> name.startsWith(p + "."))) {
                    found.add(ROOT.relativize(file) + " imports " + name);
                }
            }
        }
        assertThat(mainSources(reference)).as("the reference's sources").isNotEmpty();
        assertThat(found).as("the reference NIC must never share code with the checker that judges it").isEmpty();
    }

    @Test
    void noModuleImportsAnotherModulesInternalPackages() {
        final List<String> found = new ArrayList<>();
        for (final Path module : modules) {
            final List<String> own = packagesOf(module);
            for (final Path file : mainSources(module)) {
                for (final String name : imports(file)) {
                    final String pkg = name.substring(0, Math.max(0, name.lastIndexOf('.')));
                    final boolean internal = pkg.endsWith(".internal") || pkg.contains(".internal.");
                    if (internal && own.stream().noneMatch(p -> pkg.equals(p) || name.startsWith(p + "."))) {
                        found.add(ROOT.relativize(file) + " imports " + name);
                    }
                }
            }
        }
        assertThat(found).as("internal packages are their module's own; use or make a public API").isEmpty();
    }
}
