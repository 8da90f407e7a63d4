package org.metaroce.mrct.spark.internal;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * The captures the command line names, listed on the driver through Hadoop's {@code FileSystem}, so any
 * Hadoop-compatible path works: a file (named in the reports as given), a directory (its {@code .pcap},
 * {@code .pcapng} and {@code .cap} files, recursively, sorted by path) or a glob (every file it matches, sorted).
 * Names starting with {@code .} or {@code _} are skipped in directories and globs alike, as Hadoop's input formats do.
 */
public final class Inputs {
    /** Thrown when a glob or directory yields no capture. */
    public static final class NoCapture extends Exception {
        private static final long serialVersionUID = 1L;

        NoCapture(final String message) {
            super(message);
        }
    }

    private Inputs() {
    }

    /** The captures, in order. */
    public static List<Capture> expand(final List<String> args, final Configuration conf)
        throws IOException, NoCapture {
        final List<Capture> out = new ArrayList<>();
        for (final String arg : args) {
            final Path path = new Path(arg);
            final FileSystem fs = path.getFileSystem(conf);
            final boolean scheme = path.toUri().getScheme() != null;
            if (!glob(arg)) {
                final Path qualified = fs.makeQualified(path);
                FileStatus status = null;
                try {
                    status = fs.getFileStatus(qualified);
                } catch (java.io.FileNotFoundException e) {
                    status = null;
                }
                if (status != null && status.isDirectory()) {
                    final List<FileStatus> found = new ArrayList<>();
                    walk(fs, status.getPath(), found);
                    if (found.isEmpty()) {
                        throw new NoCapture(arg + ": no .pcap, .pcapng or .cap file in this directory");
                    }
                    add(out, found, scheme);
                } else {
                    // a file, or a missing one: the analysis reports it as the analyzer does
                    out.add(new Capture(out.size(), arg, qualified.toUri().toString(),
                        status == null ? -1 : status.getLen()));
                }
                continue;
            }
            final FileStatus[] matched = fs.globStatus(path);
            if (matched == null || matched.length == 0) {
                throw new NoCapture(arg + ": no file matches");
            }
            final List<FileStatus> found = new ArrayList<>();
            for (final FileStatus status : sorted(matched)) {
                if (hidden(status.getPath().getName())) {
                    continue;
                }
                if (status.isDirectory()) {
                    walk(fs, status.getPath(), found);
                } else {
                    found.add(status);
                }
            }
            add(out, found, scheme);
        }
        return out;
    }

    private static void add(final List<Capture> out, final List<FileStatus> found, final boolean scheme) {
        for (final FileStatus status : found) {
            final Path p = status.getPath();
            out.add(new Capture(out.size(), scheme ? p.toString() : p.toUri().getPath(), p.toUri().toString(),
                status.getLen()));
        }
    }

    private static void walk(final FileSystem fs, final Path dir, final List<FileStatus> found) throws IOException {
        for (final FileStatus status : sorted(fs.listStatus(dir))) {
            final String name = status.getPath().getName();
            if (hidden(name)) {
                continue;
            }
            if (status.isDirectory()) {
                walk(fs, status.getPath(), found);
            } else if (capture(name)) {
                found.add(status);
            }
        }
    }

    private static List<FileStatus> sorted(final FileStatus[] statuses) {
        final List<FileStatus> list = new ArrayList<>(Arrays.asList(statuses));
        list.sort(Comparator.comparing(s -> s.getPath().toString()));
        return list;
    }

    /** Hidden as Hadoop's input formats have it: {@code .crc} files, {@code _SUCCESS}, editors' files. */
    private static boolean hidden(final String name) {
        return name.startsWith(".") || name.startsWith("_");
    }

    private static boolean capture(final String name) {
        final String lower = name.toLowerCase(Locale.ROOT);
        return lower.endsWith(".pcap") || lower.endsWith(".pcapng") || lower.endsWith(".cap");
    }

    private static boolean glob(final String arg) {
        for (int i = 0; i < arg.length(); i++) {
            final char c = arg.charAt(i);
            if (c == '*' || c == '?' || c == '[' || c == '{') {
                return true;
            }
        }
        return false;
    }
}
