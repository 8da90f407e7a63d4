package org.metaroce.mrct.harness.cases;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metaroce.mrct.harness.spec.Specification;

/**
 * What {@code --cases} accepts (issue 11 item 5): area folders as before, and also a case file given itself and case
 * files directly in the folder given, as the shrinker writes them ({@code <report dir>/shrunk/GEN-3-shrunk.yaml}).
 */
class CaseLoaderPathsTest {
    private final CaseLoader loader = new CaseLoader(Specification.bundled());

    private static String caseText(final String id) {
        return "id: " + id + "\ntitle: t\nrules: [MR-RD-002]\nsetup:\n  connections:\n    - name: q\n"
            + "steps:\n  - expect_none: 1us\n";
    }

    private static Path write(final Path file, final String text) throws IOException {
        Files.createDirectories(file.getParent());
        return Files.writeString(file, text);
    }

    @Test
    void aCaseFileGivenItselfLoadsWithTheAreaOfItsNamePrefix(@TempDir final Path dir) throws Exception {
        final Path file = write(dir.resolve("rd-002-x.yaml"), caseText("RD-002-x"));

        final List<CaseDef> cases = loader.load(List.of(file));

        assertThat(cases).singleElement().satisfies(c -> {
            assertThat(c.id()).isEqualTo("RD-002-x");
            assertThat(c.area()).isEqualTo("RD");
            assertThat(c.file()).isEqualTo("rd-002-x.yaml");
        });
    }

    @Test
    void aFolderOfShrunkCasesLoadsAsWritten(@TempDir final Path dir) throws Exception {
        final Path shrunk = dir.resolve("shrunk");
        write(shrunk.resolve("GEN-3-shrunk.yaml"), caseText("GEN-3-shrunk"));
        write(shrunk.resolve("GEN-R-1-shrunk.yaml"), caseText("GEN-R-1-shrunk"));
        write(shrunk.resolve("notes.txt"), "not a case");

        final List<CaseDef> cases = loader.load(List.of(shrunk));

        assertThat(cases).extracting(CaseDef::id).containsExactly("GEN-3-shrunk", "GEN-R-1-shrunk");
        assertThat(cases).extracting(CaseDef::area).containsOnly("GEN");
    }

    @Test
    void looseFilesAndAreaFoldersMix(@TempDir final Path dir) throws Exception {
        write(dir.resolve("rd").resolve("rd-002-a.yaml"), caseText("RD-002-a"));
        write(dir.resolve("my-case.yaml"), caseText("MY-1"));

        final List<CaseDef> cases = loader.load(List.of(dir));

        assertThat(cases).extracting(CaseDef::id).containsExactly("RD-002-a", "MY-1");
        assertThat(cases).extracting(CaseDef::area).containsExactly("RD", "GEN");
    }

    @Test
    void aFolderThatIsNoAreaIsStillRefusedAndAMissingPathNamed(@TempDir final Path dir) throws Exception {
        write(dir.resolve("misc").resolve("x.yaml"), caseText("RD-002-x"));
        final Path missing = dir.resolve("nope.yaml");

        assertThatThrownBy(() -> loader.load(List.of(dir, missing)))
            .isInstanceOfSatisfying(CaseLoadException.class, e -> assertThat(e.problems()).extracting(Object::toString)
                .anySatisfy(p -> assertThat(p).contains("misc/x.yaml").contains("unknown area folder 'misc'"))
                .anySatisfy(p -> assertThat(p).contains("nope.yaml").contains("does not exist")));
    }

    @Test
    void buildAndHiddenFoldersAreNotCases(@TempDir final Path dir) throws Exception {
        write(dir.resolve("rd").resolve("rd-002-a.yaml"), caseText("RD-002-a"));
        write(dir.resolve("target").resolve("rd").resolve("rd-002-b.yaml"), "not: [a case");
        write(dir.resolve("src").resolve("test").resolve("x.yaml"), "not: [a case");
        write(dir.resolve(".git").resolve("y.yaml"), "not: [a case");

        assertThat(loader.load(List.of(dir))).extracting(CaseDef::id).containsExactly("RD-002-a");
    }

    /**
     * Surefire rewrites its reports in {@code spec-cases/target} while other test classes load the cases from
     * {@code spec-cases}: files appearing and vanishing in a build folder during the listing must never fail the load
     * (it did, as a NoSuchFileException out of Files.walk, when the folder was walked and filtered afterwards).
     */
    @Test
    void filesVanishingInABuildFolderDuringTheLoadAreNoProblem(@TempDir final Path dir) throws Exception {
        write(dir.resolve("rd").resolve("rd-002-a.yaml"), caseText("RD-002-a"));
        final Path reports = Files.createDirectories(dir.resolve("target").resolve("surefire-reports"));
        final java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
        final Thread churn = new Thread(() -> {
            int i = 0;
            while (!stop.get()) {
                final Path f = reports.resolve("TEST-" + (i++ % 64) + ".xml");
                try {
                    Files.writeString(f, "x");
                    Files.deleteIfExists(f);
                } catch (IOException e) {
                    // the churn is only there to race the listing
                }
            }
        });
        churn.start();
        try {
            for (int i = 0; i < 200; i++) {
                assertThat(loader.load(List.of(dir))).extracting(CaseDef::id).containsExactly("RD-002-a");
            }
        } finally {
            stop.set(true);
            churn.join();
        }
    }
}
