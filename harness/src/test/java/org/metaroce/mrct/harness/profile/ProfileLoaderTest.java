package org.metaroce.mrct.harness.profile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.metaroce.mrct.harness.spec.Specification;

/** DUT profiles: every parameter declared, integers where the unit counts, 64-bit values, identity as declared. */
class ProfileLoaderTest {
    private static final Specification SPEC = Specification.bundled();

    private static String reference() throws IOException {
        return Files.readString(Path.of("..", "fixtures", "profiles", "reference.yaml"));
    }

    private static DeviceProfile parse(final String text) throws ProfileLoader.ProfileException {
        return ProfileLoader.parse("p.yaml", text, "", SPEC);
    }

    @Test
    void theReferenceProfileLoadsWithItsIdentity() throws Exception {
        final DeviceProfile profile = parse(reference());
        assertThat(profile.parameters()).hasSize(SPEC.parameters().size());
        assertThat(profile.vendor()).isEqualTo("MetaRoCE project");
        assertThat(profile.identityDeclared()).isTrue();
    }

    @Test
    void aProfileMissingAParameterIsRefusedNamingEveryMissingOne() {
        assertThatThrownBy(() -> parse("identity: {vendor: X}\nparameters:\n  pmtu: 4096\n"))
            .isInstanceOf(ProfileLoader.ProfileException.class)
            .hasMessageContaining("p.yaml:2: missing parameter 'recv_window'")
            .hasMessageContaining("missing parameter 'max_msg_size'")
            .hasMessageContaining("MR-CONF-001")
            .message().doesNotContain("'pmtu'");
        assertThatThrownBy(() -> parse("identity: {vendor: X}\n")).hasMessageContaining("needs 'parameters'");
    }

    @Test
    void aFractionForAnIntegerParameterIsRefused() throws IOException {
        final String text = reference().replace("recv_window: 128", "recv_window: 128.5");
        assertThatThrownBy(() -> parse(text)).hasMessageContaining("recv_window: 128.5 is not an integer");
    }

    @Test
    void numbersBeyond64BitsAreRefusedNotWrapped() throws IOException {
        final String size = reference().replace("max_msg_size: 2147483648", "max_msg_size: 18446744073709551621");
        assertThatThrownBy(() -> parse(size)).hasMessageContaining("max_msg_size: 18446744073709551621 does not fit")
            .message().doesNotContain("5 is outside");
        final String window = reference().replace("recv_window: 128", "recv_window: 18446744073709551744");
        assertThatThrownBy(() -> parse(window)).hasMessageContaining("recv_window: 18446744073709551744 does not fit");
    }

    @Test
    void aValueOutOfRangeIsRefusedNamingIt() throws IOException {
        final String text = reference().replace("recv_window: 128", "recv_window: 15");
        assertThatThrownBy(() -> parse(text)).hasMessageContaining("recv_window: 15 is outside 16 to 32768");
    }

    @Test
    void theIdentityIsKeptAsDeclared() throws Exception {
        final String text = reference().replace("  model: mrct reference NIC\n", "").replace("  firmware: \"1.0\"\n",
            "");
        final DeviceProfile profile = parse(text);
        assertThat(profile.vendor()).isEqualTo("MetaRoCE project");
        assertThat(profile.model()).isNull();
        assertThat(profile.firmware()).isNull();
        assertThat(profile.identityDeclared()).isTrue();
        assertThat(DeviceProfile.shown(profile.model())).isEqualTo(DeviceProfile.NOT_DECLARED);
        final DeviceProfile anonymous = parse(reference().replaceAll("(?s)identity:.*?pics:", "pics:"));
        assertThat(anonymous.identityDeclared()).isFalse();
    }
}
