package org.metaroce.mrct.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class AdapterProvidersTest {
    /** A provider with a name, a position and options, that cannot be configured. */
    private record Fake(String name, int position, List<AdapterOption> options) implements AdapterProvider {
        @Override
        public String description() {
            return "a fake";
        }

        @Override
        public AdapterSetup configure(final AdapterRequest request) throws AdapterSetupException {
            throw new AdapterSetupException("fake");
        }
    }

    @Test
    void providersComeByPositionThenName() {
        final List<AdapterProvider> sorted = AdapterProviders.load(List.of(new Fake("zeta", 5, List.of()),
            new Fake("beta", 5, List.of()), new Fake("first", 0, List.of())));
        assertThat(sorted).extracting(AdapterProvider::name).containsExactly("first", "beta", "zeta");
    }

    @Test
    void twoProvidersWithOneNameOrOneOptionAreRefused() {
        assertThatThrownBy(() -> AdapterProviders.load(List.of(new Fake("a", 0, List.of()),
            new Fake("a", 1, List.of())))).isInstanceOf(IllegalStateException.class).hasMessageContaining("'a'");
        final AdapterOption from = AdapterOption.of("--from", "FILE", "a file");
        assertThatThrownBy(() -> AdapterProviders.load(List.of(new Fake("a", 0, List.of(from)),
            new Fake("b", 1, List.of(from))))).isInstanceOf(IllegalStateException.class)
            .hasMessageContaining("--from").hasMessageContaining("'b'");
    }

    @Test
    void theServiceLoaderFindsAProviderRegisteredInMetaInfServices() throws Exception {
        // the harness's test resources register one, as an adapter's jar does
        assertThat(AdapterProviders.names()).containsExactly("test-device");
        final AdapterProvider provider = AdapterProviders.byName("test-device");
        assertThat(provider).isInstanceOf(TestDeviceProvider.class);
        assertThat(AdapterProviders.byName("reference")).isNull();
        final List<String> out = new java.util.ArrayList<>();
        provider.configure(new AdapterRequest(org.metaroce.mrct.harness.spec.Specification.bundled(),
            new AdapterOptions(provider.options(), java.util.Map.of("--test-wait", "3us")), null, out::add,
            line -> { }));
        assertThat(out).containsExactly("waits 3000 ns");
    }
}
