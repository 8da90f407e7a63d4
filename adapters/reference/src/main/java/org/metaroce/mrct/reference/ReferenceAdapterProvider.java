package org.metaroce.mrct.reference;

import java.util.EnumSet;
import java.util.Set;
import org.metaroce.mrct.harness.profile.DeviceProfile;
import org.metaroce.mrct.harness.spec.Specification;
import org.metaroce.mrct.spi.Adapter;
import org.metaroce.mrct.spi.AdapterProvider;
import org.metaroce.mrct.spi.AdapterRequest;
import org.metaroce.mrct.spi.AdapterSetup;
import org.metaroce.mrct.spi.AdapterSetupException;

/**
 * {@code --adapter reference}: the embedded reference NIC on virtual time, with a fault profile when asked. Each
 * {@link AdapterSetup#open} gives a fresh NIC, so a failing case can be run again alone.
 */
public final class ReferenceAdapterProvider implements AdapterProvider {
    @Override
    public String name() {
        return "reference";
    }

    @Override
    public String description() {
        return "the embedded reference NIC, default";
    }

    @Override
    public int position() {
        return 0;
    }

    @Override
    public Set<Trait> traits() {
        return EnumSet.of(Trait.FAULTS, Trait.REPEATABLE);
    }

    @Override
    public AdapterSetup configure(final AdapterRequest request) throws AdapterSetupException {
        final Set<Fault> faults;
        if (request.fault() == null) {
            faults = Set.of();
        } else {
            final Fault fault = Fault.byLabel(request.fault());
            if (fault == null) {
                throw new AdapterSetupException("unknown fault '" + request.fault() + "' (mrct faults lists them)");
            }
            faults = Set.of(fault);
        }
        final Specification spec = request.spec();
        return new AdapterSetup() {
            @Override
            public Adapter open(final DeviceProfile profile) {
                return ReferenceAdapter.fromProfile(profile, spec, faults);
            }

            @Override
            public String fault() {
                return faults.isEmpty() ? null : faults.iterator().next().label();
            }
        };
    }
}
