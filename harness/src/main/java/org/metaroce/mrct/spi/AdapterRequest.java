package org.metaroce.mrct.spi;

import java.util.Objects;
import java.util.function.Consumer;
import org.metaroce.mrct.harness.spec.Specification;

/**
 * What a run asks of an {@link AdapterProvider}.
 *
 * @param spec the specification the run checks against
 * @param options the provider's option values
 * @param fault the fault profile to turn on, or null (only for providers with {@link AdapterProvider.Trait#FAULTS})
 * @param out where the provider says what it set up, one line each (the run's standard output)
 * @param warnings where it warns, one line each (the run's error stream)
 */
public record AdapterRequest(Specification spec, AdapterOptions options, String fault, Consumer<String> out,
                             Consumer<String> warnings) {
    public AdapterRequest {
        Objects.requireNonNull(spec, "spec");
        Objects.requireNonNull(options, "options");
        Objects.requireNonNull(out, "out");
        Objects.requireNonNull(warnings, "warnings");
    }
}
