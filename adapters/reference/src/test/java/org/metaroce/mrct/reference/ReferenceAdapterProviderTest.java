package org.metaroce.mrct.reference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;
import org.metaroce.mrct.harness.profile.DeviceProfile;
import org.metaroce.mrct.harness.profile.ProfileLoader;
import org.metaroce.mrct.harness.spec.Specification;
import org.metaroce.mrct.spi.Adapter;
import org.metaroce.mrct.spi.AdapterOptions;
import org.metaroce.mrct.spi.AdapterProvider;
import org.metaroce.mrct.spi.AdapterRequest;
import org.metaroce.mrct.spi.AdapterSetup;
import org.metaroce.mrct.spi.AdapterSetupException;
import org.metaroce.mrct.spi.Capability;

class ReferenceAdapterProviderTest {
    private static final Specification SPEC = Specification.bundled();

    private static AdapterRequest request(final String fault) {
        return new AdapterRequest(SPEC, AdapterOptions.none(List.of()), fault, line -> { }, line -> { });
    }

    private static DeviceProfile profile() throws Exception {
        try (InputStream in = ReferenceAdapter.class.getResourceAsStream(ReferenceAdapter.PROFILE_RESOURCE)) {
            final byte[] bytes = in.readAllBytes();
            return ProfileLoader.parse("reference.yaml", new String(bytes, StandardCharsets.UTF_8),
                ProfileLoader.sha256(bytes), SPEC);
        }
    }

    @Test
    void theServiceLoaderFindsItAsReference() {
        final List<AdapterProvider> found = new ArrayList<>();
        ServiceLoader.load(AdapterProvider.class).forEach(found::add);
        assertThat(found).hasSize(1).first().isInstanceOf(ReferenceAdapterProvider.class);
        assertThat(found.get(0).name()).isEqualTo("reference");
        assertThat(found.get(0).traits()).containsExactlyInAnyOrder(AdapterProvider.Trait.FAULTS,
            AdapterProvider.Trait.REPEATABLE);
        assertThat(found.get(0).options()).isEmpty();
    }

    @Test
    void eachOpenGivesAFreshNicOnVirtualTimeWithTheFault() throws Exception {
        final AdapterSetup setup = new ReferenceAdapterProvider().configure(request("no-sack"));
        assertThat(setup.fault()).isEqualTo("no-sack");
        assertThat(setup.recorded()).isNull();
        final DeviceProfile profile = profile();
        try (Adapter first = setup.open(profile); Adapter second = setup.open(profile)) {
            assertThat(first).isNotSameAs(second);
            assertThat(first.capabilities()).contains(Capability.VIRTUAL_TIME);
            assertThat(first.name()).isEqualTo("reference");
        }
        assertThat(new ReferenceAdapterProvider().configure(request(null)).fault()).isNull();
    }

    @Test
    void anUnknownFaultIsRefusedByName() {
        assertThatThrownBy(() -> new ReferenceAdapterProvider().configure(request("gremlins")))
            .isInstanceOf(AdapterSetupException.class)
            .hasMessage("unknown fault 'gremlins' (mrct faults lists them)");
    }
}
