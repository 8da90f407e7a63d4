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
import org.metaroce.mrct.harness.result.CaseResult;
import org.metaroce.mrct.harness.spec.Specification;

/**
 * The executor's side: analyses one capture with the analyzer ({@link AnalyzerSeam}) and hands its findings back.
 * A capture on the local file system is read in place; one on another Hadoop file system is first copied to a
 * temporary file on the executor's disk (the analyzer streams a file; the copy is removed afterwards).
 */
public final class AnalyseCapture implements Function<Capture, CaptureFindings> {
    private static final long serialVersionUID = 1L;

    private final String mode;
    private final boolean complete;
    private final String suiteVersion;
    private final String profileName;
    private final String profileText;
    private final String profileSha256;
    private final byte[] hadoopConf;
    private final int count;

    /**
     * @param options    the analysis options; the profile is carried as its file's name, text and hash
     * @param profile    the profile file's name, text and SHA-256, or null
     * @param hadoopConf the driver's Hadoop configuration ({@link HadoopConf#bytes})
     */
    public AnalyseCapture(final CaptureAnalyzer.Options options, final String[] profile, final byte[] hadoopConf,
                          final int count) {
        this.count = count;
        this.mode = options.mode().name();
        this.complete = options.complete();
        this.suiteVersion = options.suiteVersion();
        this.profileName = profile == null ? null : profile[0];
        this.profileText = profile == null ? null : profile[1];
        this.profileSha256 = profile == null ? null : profile[2];
        this.hadoopConf = hadoopConf.clone();
    }

    @Override
    public CaptureFindings call(final Capture capture) throws IOException, ProfileLoader.ProfileException {
        final Specification spec = Specification.bundled();
        final DeviceProfile profile = profileName == null ? null
            : ProfileLoader.parse(profileName, profileText, profileSha256, spec);
        final CaptureAnalyzer.Options options = new CaptureAnalyzer.Options(CaptureAnalyzer.Mode.valueOf(mode),
            profile, complete, suiteVersion);
        final URI uri = URI.create(capture.uri());
        if ("file".equals(uri.getScheme())) {
            return findings(capture, AnalyzerSeam.analyzeOne(spec, options, Path.of(uri), capture.name(), count));
        }
        final Path local;
        try {
            local = copy(capture, uri);
        } catch (FileNotFoundException e) {
            return unread(capture, "no such file");
        } catch (IOException e) {
            return unread(capture, e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName());
        }
        try {
            return findings(capture, AnalyzerSeam.analyzeOne(spec, options, local, capture.name(), count));
        } finally {
            Files.deleteIfExists(local);
            Files.deleteIfExists(local.getParent());
        }
    }

    private Path copy(final Capture capture, final URI uri) throws IOException {
        final Configuration conf = HadoopConf.read(hadoopConf);
        final org.apache.hadoop.fs.Path path = new org.apache.hadoop.fs.Path(uri);
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

    private static CaptureFindings findings(final Capture capture, final CaptureAnalysis one) {
        final List<String> cases = new ArrayList<>(one.cases().size());
        for (final CaseResult result : one.cases()) {
            cases.add(CaseCodec.write(result));
        }
        return new CaptureFindings(capture.index(), CaseCodec.write(one.file()), cases, one.violations());
    }

    private static CaptureFindings unread(final Capture capture, final String problem) {
        return new CaptureFindings(capture.index(), CaseCodec.write(new FileOutcome(capture.name(), 0, 0, 0, 0, 0,
            false, 0, problem)), List.of(), List.of());
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
