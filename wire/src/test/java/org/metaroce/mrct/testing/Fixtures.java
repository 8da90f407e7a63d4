package org.metaroce.mrct.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;

/** Paths of the repository, its fixtures and the optional {@code ../shared/} folder beside the clone. */
public final class Fixtures {
    private Fixtures() {
    }

    /** The repository root: the {@code mrct.root} property set by surefire, else found upward from the cwd. */
    public static Path root() {
        final String property = System.getProperty("mrct.root");
        if (property != null && !property.isBlank() && Files.isDirectory(Paths.get(property, "spec"))) {
            return Paths.get(property).toAbsolutePath().normalize();
        }
        Path dir = Paths.get("").toAbsolutePath();
        while (dir != null) {
            if (Files.isRegularFile(dir.resolve("mrct")) && Files.isDirectory(dir.resolve("spec"))) {
                return dir;
            }
            dir = dir.getParent();
        }
        throw new IllegalStateException("cannot find the mrct repository root from " + Paths.get("").toAbsolutePath());
    }

    /** {@code fixtures/} of the repository. */
    public static Path fixtures() {
        return root().resolve("fixtures");
    }

    /** The real soft-RoCE captures shipped in {@code fixtures/captures/soft-roce} (CC BY-SA 4.0, see ATTRIBUTION). */
    public static List<Path> softRoceCaptures() {
        return pcapsIn(fixtures().resolve("captures/soft-roce"));
    }

    /**
     * The captures in {@code ../shared/captures} beside the clone; skips the calling test, with the reason, when that
     * folder is absent (users clone only the project).
     */
    public static List<Path> sharedCaptures() {
        final Path shared = root().resolveSibling("shared").resolve("captures");
        Assumptions.assumeTrue(Files.isDirectory(shared),
            "skipped: " + shared + " is absent (it exists only beside a development checkout)");
        return pcapsIn(shared);
    }

    private static List<Path> pcapsIn(final Path dir) {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(p -> p.toString().endsWith(".pcap") || p.toString().endsWith(".pcapng"))
                .sorted().collect(Collectors.toList());
        } catch (IOException e) {
            throw new IllegalStateException("cannot list " + dir, e);
        }
    }
}
