package org.metaroce.mrct.cli;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.metaroce.mrct.harness.profile.DeviceProfile;
import org.metaroce.mrct.harness.profile.ProfileLoader;
import org.metaroce.mrct.harness.spec.Specification;
import org.metaroce.mrct.reference.ReferenceAdapter;
import picocli.CommandLine.Option;

/** {@code --profile FILE} of {@code mrct run} and {@code mrct serve}: the DUT profile, by default the reference NIC's. */
final class ProfileOption {
    @Option(names = "--profile", paramLabel = "FILE",
        description = "DUT profile (PICS claims, parameters, identity); default: the reference NIC's")
    Path path;

    /** The profile given, or the reference NIC's own (bundled with it, for runs outside a checkout). */
    DeviceProfile load(final Specification spec) throws ProfileLoader.ProfileException, RunCommand.UsageProblem {
        if (path != null) {
            return ProfileLoader.load(path, spec);
        }
        try (InputStream in = ReferenceAdapter.class.getResourceAsStream(ReferenceAdapter.PROFILE_RESOURCE)) {
            if (in == null) {
                throw new RunCommand.UsageProblem("the reference profile is missing from the jar; give --profile");
            }
            final byte[] bytes = in.readAllBytes();
            return ProfileLoader.parse("reference.yaml", new String(bytes, StandardCharsets.UTF_8),
                ProfileLoader.sha256(bytes), spec);
        } catch (IOException e) {
            throw new RunCommand.UsageProblem("cannot read the reference profile: " + e.getMessage());
        }
    }
}
