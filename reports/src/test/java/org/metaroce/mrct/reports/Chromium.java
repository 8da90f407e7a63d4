package org.metaroce.mrct.reports;

import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.metaroce.mrct.testing.ExternalTool;

/** Loads a page in headless Chromium and returns its DOM after the scripts ran, and the console lines it logged. */
final class Chromium {
    private Chromium() {
    }

    /**
     * What the browser made of a page.
     *
     * @param dom the serialised DOM after rendering
     * @param console the {@code CONSOLE} lines of Chromium's log (messages the page logged, errors included)
     * @param stderr the whole log, for failure messages
     */
    record Page(String dom, List<String> console, String stderr) {
    }

    /** Skips the calling test, with the reason, when Chromium is not installed. */
    static void assumeAvailable() {
        ExternalTool.assumeWorks("the HTML report is checked in a real browser (Debian's chromium)", "chromium",
            "--version");
    }

    /** Loads {@code file} (with {@code #fragment} when not empty) with a profile in {@code profileDir}. */
    static Page load(final Path file, final String fragment, final Path profileDir) {
        final String url = file.toUri() + (fragment.isEmpty() ? "" : "#" + fragment);
        final ExternalTool.Result result = ExternalTool.run(120, "chromium", "--headless", "--no-sandbox",
            "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
            "--disable-component-update", "--disable-sync", "--user-data-dir=" + profileDir,
            "--enable-logging=stderr", "--v=1", "--virtual-time-budget=5000", "--dump-dom", url);
        if (result.exitCode() != 0 || result.stdout().isBlank()) {
            throw new AssertionError("chromium failed (exit " + result.exitCode() + "):\n" + tail(result.stderr()));
        }
        final List<String> console = result.stderr().lines().filter(line -> line.contains(":CONSOLE"))
            .collect(Collectors.toList());
        return new Page(result.stdout(), console, result.stderr());
    }

    static String tail(final String text) {
        return text.length() <= 4000 ? text : text.substring(text.length() - 4000);
    }
}
