package org.metaroce.mrct.spark.internal;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.spark.api.java.function.Function;
import org.metaroce.mrct.analyzer.CaptureAnalysis;
import org.metaroce.mrct.analyzer.CaptureAnalyzer;
import org.metaroce.mrct.analyzer.FileOutcome;
import org.metaroce.mrct.harness.profile.DeviceProfile;
import org.metaroce.mrct.harness.profile.ProfileLoader;
import org.metaroce.mrct.harness.spec.Specification;

/**
 * The executor's side: does one {@link Work} with the analyzer ({@link AnalyzerSeam}) and hands its result back as
 * JSON. A capture on the local file system is read in place; one on another Hadoop file system is first copied to a
 * temporary file on the executor's disk (the analyzer streams a file; the copy is removed afterwards).
 */
public final class AnalyseWork implements Function<Work, Work.Result> {
    private static final long serialVersionUID = 1L;

    private final String mode;
    private final boolean complete;
    private final String suiteVersion;
    private final long matchWindowNs;
    private final long releaseWindowNs;
    private final long maxHeldFlows;
    private final String profileName;
    private final String profileText;
    private final String profileSha256;
    private final byte[] hadoopConf;

    /**
     * @param options    the analysis options; the profile is carried as its file's name, text and hash
     * @param profile    the profile file's name, text and SHA-256, or null
     * @param hadoopConf the driver's Hadoop configuration ({@link HadoopConf#bytes})
     */
    public AnalyseWork(final CaptureAnalyzer.Options options, final String[] profile, final byte[] hadoopConf) {
        this.mode = options.mode().name();
        this.complete = options.complete();
        this.suiteVersion = options.suiteVersion();
        this.matchWindowNs = options.matchWindowNs();
        this.releaseWindowNs = options.releaseWindowNs();
        this.maxHeldFlows = options.maxHeldFlows();
        this.profileName = profile == null ? null : profile[0];
        this.profileText = profile == null ? null : profile[1];
        this.profileSha256 = profile == null ? null : profile[2];
        this.hadoopConf = hadoopConf.clone();
    }

    @Override
    public Work.Result call(final Work work) throws IOException, ProfileLoader.ProfileException {
        final Specification spec = Specification.bundled();
        final DeviceProfile profile = profileName == null ? null
            : ProfileLoader.parse(profileName, profileText, profileSha256, spec);
        final CaptureAnalyzer.Options options = new CaptureAnalyzer.Options(CaptureAnalyzer.Mode.valueOf(mode),
            profile, complete, suiteVersion, 1, matchWindowNs, releaseWindowNs, maxHeldFlows);
        final Capture capture = work.capture();
        if (work.kind() == Work.Kind.MATCH) {
            final List<Path> paths = new ArrayList<>();
            final List<String> names = new ArrayList<>();
            final List<Path> copies = new ArrayList<>();
            try {
                for (final Capture c : work.captures()) {
                    Path local = localPath(c);
                    if (local == null) {
                        try {
                            local = copy(c);
                            copies.add(local);
                        } catch (IOException e) {
                            // unreadable: its own task names it; the matching goes on without it
                            local = Path.of(System.getProperty("java.io.tmpdir"), "mrct-unreadable-" + c.index());
                        }
                    }
                    paths.add(local);
                    names.add(c.name());
                }
                return new Work.Result(work.kind(), 0, 0, CaseCodec.write(AnalyzerSeam.match(spec, options, paths,
                    names)));
            } finally {
                for (final Path copy : copies) {
                    remove(copy);
                }
            }
        }
        Path local = localPath(capture);
        Path copy = null;
        if (local == null) {
            try {
                copy = copy(capture);
                local = copy;
            } catch (FileNotFoundException e) {
                return unread(work, "no such file");
            } catch (IOException e) {
                return unread(work, e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName());
            }
        }
        try {
            final Object result = switch (work.kind()) {
                case PLAN -> AnalyzerSeam.plan(spec, options, local, work.shard());
                case SHARD -> AnalyzerSeam.analyzeShard(spec, options, local, capture.name(), work.count(),
                    work.plan(), work.shard());
                default -> AnalyzerSeam.analyzeOne(spec, options, local, capture.name(), work.count());
            };
            return new Work.Result(work.kind(), capture.index(), work.shard(), CaseCodec.write(result));
        } finally {
            if (copy != null) {
                remove(copy);
            }
        }
    }

    /**
     * The capture on this executor's disk: in place when it is on the local file system, else a temporary copy
     * ({@link #release} removes it); null when it cannot be copied.
     */
    Path fetch(final Capture capture) {
        final Path local = localPath(capture);
        if (local != null) {
            return local;
        }
        try {
            return copy(capture);
        } catch (IOException | UncheckedIOException e) {
            return null;
        }
    }

    /** Removes {@code path} when {@link #fetch} copied it (idempotent). */
    void release(final Capture capture, final Path path) {
        if (path != null && localPath(capture) == null) {
            try {
                remove(path);
            } catch (IOException e) {
                // a temporary file left behind: the executor's temporary directory is cleaned with it
            }
        }
    }

    /** The capture's path when it is on the local file system, else null. */
    private static Path localPath(final Capture capture) {
        final URI uri = URI.create(capture.uri());
        return "file".equals(uri.getScheme()) ? Path.of(uri) : null;
    }

    private Path copy(final Capture capture) throws IOException {
        final Configuration conf = HadoopConf.read(hadoopConf);
        final org.apache.hadoop.fs.Path path = new org.apache.hadoop.fs.Path(URI.create(capture.uri()));
        final FileSystem fs = path.getFileSystem(conf);
        final Path dir = Files.createTempDirectory("mrct-capture-");
        final String base = path.getName().isEmpty() ? "capture" : path.getName();
        final Path local = dir.resolve(base);
        try (InputStream in = fs.open(path)) {
            Files.copy(in, local, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException | UncheckedIOException e) {
            Files.deleteIfExists(local);
            Files.deleteIfExists(dir);
            throw e;
        }
        return local;
    }

    private static void remove(final Path copy) throws IOException {
        Files.deleteIfExists(copy);
        Files.deleteIfExists(copy.getParent());
    }

    /** A capture that could not be copied: a whole analysis that names the problem (a plan of one shard). */
    private static Work.Result unread(final Work work, final String problem) {
        final Capture capture = work.capture();
        if (work.kind() == Work.Kind.PLAN) {
            return new Work.Result(work.kind(), capture.index(), 0, CaseCodec.write(new Work.ShardPlan(1, 0,
                new long[0], new int[0])));
        }
        final FileOutcome file = new FileOutcome(capture.name(), 0, 0, 0, 0, 0, false, 0, problem);
        if (work.kind() == Work.Kind.SHARD) {
            return new Work.Result(work.kind(), capture.index(), work.shard(), CaseCodec.write(
                new org.metaroce.mrct.analyzer.CaptureShards.Shard(file, List.of(), List.of())));
        }
        return new Work.Result(work.kind(), capture.index(), 0, CaseCodec.write(new CaptureAnalysis(file, List.of(),
            List.of())));
    }

    /** The Hadoop configuration as bytes ({@code Configuration} is {@code Writable}, not {@code Serializable}). */
    public static final class HadoopConf {
        private HadoopConf() {
        }

        /** {@code conf} written out. */
        public static byte[] bytes(final Configuration conf) {
            final java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
            try (java.io.DataOutputStream data = new java.io.DataOutputStream(out)) {
                conf.write(data);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return out.toByteArray();
        }

        /** The configuration {@link #bytes} wrote. */
        public static Configuration read(final byte[] bytes) throws IOException {
            final Configuration conf = new Configuration(false);
            try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes))) {
                conf.readFields(in);
            }
            return conf;
        }
    }
}
