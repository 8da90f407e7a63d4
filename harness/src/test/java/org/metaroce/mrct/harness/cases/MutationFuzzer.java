package org.metaroce.mrct.harness.cases;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;

/**
 * Seeded mutations of case files, line by line: a line dropped, duplicated or cut short, a value replaced by a hostile
 * one (huge numbers, deep expressions, other YAML kinds, tags, anchors, merge keys), a key renamed. The same seed gives
 * the same mutations.
 */
final class MutationFuzzer {
    private static final String[] VALUES = {
        "18446744073709551621", "9223372036854775808", "-9223372036854775809", "1 << 40", "1e300", "128.5", "-1",
        "0x1000000", "99999999999999999999s", "\"" + "(".repeat(3000) + "\"", "[]", "{}", "null", "~", "!foo 1",
        "*nowhere", "&a 1", "{<<: {x: 1}}", "\"a\\u0000b\"", "[[[[[[1]]]]]]", "true", "\"\"", "0b", "1..2", "q[",
        "\"min(1)\"", "\"bits(64)\"", "\"1 % 0\"", "{range: [1]}", "{mask: 1}", "{not: }", "10000000",
    };

    private final SplittableRandom random;

    MutationFuzzer(final long seed) {
        this.random = new SplittableRandom(seed);
    }

    int nextInt(final int bound) {
        return random.nextInt(bound);
    }

    /** The texts of the bundled cases (from the source tree beside the harness module). */
    static List<String> bundledCaseTexts() throws IOException {
        final Path root = Path.of("..", "spec-cases");
        final List<String> texts = new ArrayList<>();
        try (Stream<Path> walk = Files.walk(root)) {
            for (final Path file : walk.filter(p -> p.toString().endsWith(".yaml"))
                .filter(p -> !p.toString().contains("target") && !p.toString().contains("src")).sorted().toList()) {
                texts.add(Files.readString(file, StandardCharsets.UTF_8));
            }
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        return texts;
    }

    /** One to three mutations of {@code text}. */
    String mutate(final String text) {
        final List<String> lines = new ArrayList<>(List.of(text.split("\n", -1)));
        final int count = 1 + random.nextInt(3);
        for (int i = 0; i < count && !lines.isEmpty(); i++) {
            final int at = random.nextInt(lines.size());
            final String line = lines.get(at);
            switch (random.nextInt(6)) {
                case 0 -> lines.remove(at);
                case 1 -> lines.add(at, line);
                case 2 -> lines.set(at, line.substring(0, random.nextInt(line.length() + 1)));
                case 3 -> lines.set(at, replaceValue(line));
                case 4 -> lines.set(at, line.replaceFirst("[a-z_]+:", random.nextBoolean() ? "x:" : "<<:"));
                default -> lines.set(at, line.replaceFirst("\\b[0-9]+\\b", VALUES[random.nextInt(VALUES.length)]));
            }
        }
        return String.join("\n", lines);
    }

    private String replaceValue(final String line) {
        final int colon = line.indexOf(": ");
        if (colon < 0) {
            return line + " " + VALUES[random.nextInt(VALUES.length)];
        }
        final int end = line.indexOf(',', colon);
        final String value = VALUES[random.nextInt(VALUES.length)];
        return line.substring(0, colon + 2) + value + (end < 0 ? "" : line.substring(end));
    }
}
