package org.metaroce.mrct.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The CI traps of issue 11 item 5: a selection that selects nothing fails the job (exit 2) instead of passing it;
 * {@code mrct explain} takes every ID the other commands print; a shrunk case runs from its folder as written.
 */
class CiTrapsTest {
    @Test
    void aSelectionOfNoCaseExits2NamingTheSelector(@TempDir final Path dir) {
        final Mrct.Run run = Mrct.run("run", "-s", "NOPE", "--report-dir", dir.resolve("r").toString(), "--quiet");

        assertThat(run.status()).as(run.err()).isEqualTo(2);
        assertThat(run.err()).contains("mrct run: no case selected by -s NOPE");
        assertThat(run.out()).doesNotContain("CONFORMANT");
    }

    @Test
    void aCasesFolderWithoutCasesExits2(@TempDir final Path dir) throws Exception {
        final Path empty = Files.createDirectories(dir.resolve("empty"));

        final Mrct.Run run = Mrct.run("run", "--cases", empty.toString(), "--generated", "0", "--report-dir",
            dir.resolve("r").toString(), "--quiet");

        assertThat(run.status()).as(run.err()).isEqualTo(2);
        assertThat(run.err()).contains("no case selected by --cases " + empty);
    }

    /** The ID a line of {@code mrct list} starts with (a row's values may hold spaces: {@code [length=pmtu * 3]}). */
    private static String listedId(final String line) {
        final int space = line.indexOf(' ');
        final int open = line.indexOf('[');
        return open >= 0 && open < space ? line.substring(0, line.indexOf(']') + 1) : line.substring(0, space);
    }

    @Test
    void explainTakesEveryIdThatListPrints() {
        final Mrct.Run list = Mrct.run("list");
        final List<String> ids = list.lines().stream().map(CiTrapsTest::listedId).toList();
        assertThat(ids).as("cases listed").hasSizeGreaterThan(300);
        assertThat(ids.stream().filter(id -> id.contains("["))).as("matrix rows listed").hasSizeGreaterThan(10)
            .anyMatch(id -> id.contains(" "));
        // every one, matrix rows (values with spaces included) and plain IDs: each explain loads every case (~0.3 s)
        for (final String id : ids) {
            final Mrct.Run run = Mrct.run("explain", id);
            assertThat(run.status()).as(id + ": " + run.err()).isZero();
            assertThat(run.lines().get(0)).startsWith(id + ": ");
            if (id.contains("[")) {
                assertThat(run.lines().get(1)).startsWith("  the row of case ").contains(id.substring(id.indexOf('[')
                    + 1, id.indexOf('=')));
            }
        }
    }

    @Test
    void explainShowsAGeneratedCaseOfTheRunSeed() {
        final Mrct.Run seed1 = Mrct.run("explain", "GEN-3");
        final Mrct.Run seed7 = Mrct.run("explain", "GEN-3", "--seed", "7");
        final Mrct.Run requester = Mrct.run("explain", "GEN-R-0");

        assertThat(seed1.status()).as(seed1.err()).isZero();
        assertThat(seed1.out()).startsWith("GEN-3: ").contains("--- gen/GEN-3.yaml", "id: GEN-3",
            "Generated from run seed 1, item 3.");
        assertThat(seed7.status()).as(seed7.err()).isZero();
        assertThat(seed7.out()).contains("Generated from run seed 7, item 3.").isNotEqualTo(seed1.out());
        assertThat(requester.status()).as(requester.err()).isZero();
        assertThat(requester.out()).startsWith("GEN-R-0: ").contains("id: GEN-R-0");
        assertThat(Mrct.run("explain", "GEN-x").status()).isEqualTo(2);
        assertThat(Mrct.run("explain", "NOPE-1").err()).contains("no case NOPE-1");
    }

    @Test
    void aShrunkCaseFolderRunsAsWrittenAndExplains(@TempDir final Path dir) throws Exception {
        // a shrunk case is a generated case's text under a new ID, written directly into <report dir>/shrunk/
        final String text = Mrct.run("explain", "GEN-2").out();
        final String yaml = text.substring(text.indexOf('\n', text.indexOf("--- gen/GEN-2.yaml")) + 1)
            .replace("id: GEN-2", "id: GEN-2-shrunk");
        final Path shrunk = Files.createDirectories(dir.resolve("report").resolve("shrunk"));
        Files.writeString(shrunk.resolve("GEN-2-shrunk.yaml"), yaml);

        final Mrct.Run folder = Mrct.run("run", "--cases", shrunk.toString(), "--generated", "0", "--report-dir",
            dir.resolve("r1").toString(), "--quiet");
        final Mrct.Run file = Mrct.run("run", "--cases", shrunk.resolve("GEN-2-shrunk.yaml").toString(),
            "--generated", "0", "--report-dir", dir.resolve("r2").toString(), "--quiet");
        final Mrct.Run explained = Mrct.run("explain", "GEN-2-shrunk", "--cases", shrunk.toString());

        assertThat(folder.status()).as(folder.err()).isZero();
        assertThat(folder.out()).contains("CONFORMANT", "(1 PASS)");
        assertThat(file.status()).as(file.err()).isZero();
        assertThat(explained.status()).as(explained.err()).isZero();
        assertThat(explained.out()).contains("--- GEN-2-shrunk.yaml", "id: GEN-2-shrunk");
    }
}
