package org.metaroce.mrct.spi;

import java.util.List;
import java.util.Set;
import org.metaroce.mrct.harness.profile.DeviceProfile;

/**
 * A provider registered in this module's test resources only ({@code META-INF/services}), the way a vendor registers
 * theirs: {@link AdapterProvidersTest} finds it through the {@link java.util.ServiceLoader}.
 */
public final class TestDeviceProvider implements AdapterProvider {
    @Override
    public String name() {
        return "test-device";
    }

    @Override
    public String description() {
        return "a device for the SPI's own tests";
    }

    @Override
    public List<AdapterOption> options() {
        return List.of(new AdapterOption("--test-wait", "DURATION", "how long", "1ms"));
    }

    @Override
    public Set<Trait> traits() {
        return Set.of(Trait.REAL_TIME);
    }

    @Override
    public AdapterSetup configure(final AdapterRequest request) throws AdapterSetupException {
        final long waitNs = request.options().duration("--test-wait");
        request.out().accept("waits " + waitNs + " ns");
        return new AdapterSetup() {
            @Override
            public Adapter open(final DeviceProfile profile) {
                throw new AdapterException("no device behind the test provider");
            }
        };
    }
}
