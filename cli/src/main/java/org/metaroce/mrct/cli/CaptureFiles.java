package org.metaroce.mrct.cli;

import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * The captures an argument of {@code mrct analyze} names: a file as given (whatever its name), a directory's capture
 * files ({@code *.pcap}, {@code *.pcapng}, {@code *.cap}, not recursing), or the files a glob pattern left unexpanded
 * by the shell matches ({@code caps/host-*.pcap}, {@code caps/**.pcapng}), sorted by name for a stable report.
 */
final class CaptureFiles {
    private CaptureFiles() {
    }

    /** The files {@code argument} names; empty when a directory or pattern holds none. */
    static List<String> expand(final String argument) throws IOException {
        final Path path = Path.of(argument);
        if (Files.isDirectory(path)) {
            final List<String> out = new ArrayList<>();
            try (Stream<Path> entries = Files.list(path)) {
                entries.filter(p -> Files.isRegularFile(p) && isCapture(p)).map(Path::toString).sorted()
                    .forEach(out::add);
            }
            return out;
        }
        if (Files.exists(path) || !hasGlob(argument)) {
            return List.of(argument);
        }
        // a pattern: walk from the longest leading part without glob characters
        final String normalized = argument.replace('\\', '/');
        int cut = 0;
        for (int i = 0; i < normalized.length() && "*?[{".indexOf(normalized.charAt(i)) < 0; i++) {
            if (normalized.charAt(i) == '/') {
                cut = i + 1;
            }
        }
        final boolean relative = cut == 0;
        final Path base = relative ? Path.of(".") : Path.of(normalized.substring(0, cut));
        if (!Files.isDirectory(base)) {
            return List.of();
        }
        final PathMatcher matcher = FileSystems.getDefault().getPathMatcher("glob:" + normalized.substring(cut));
        // the pattern matches paths relative to the base
        final List<String> out = new ArrayList<>();
        try (Stream<Path> entries = Files.walk(base)) {
            entries.filter(Files::isRegularFile).filter(p -> matcher.matches(base.relativize(p)))
                .map(p -> relative ? base.relativize(p).toString() : p.toString()).sorted().forEach(out::add);
        }
        return out;
    }

    private static boolean hasGlob(final String text) {
        return text.chars().anyMatch(c -> "*?[{".indexOf(c) >= 0);
    }

    private static boolean isCapture(final Path file) {
        final String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
        return name.endsWith(".pcap") || name.endsWith(".pcapng") || name.endsWith(".cap");
    }
}
