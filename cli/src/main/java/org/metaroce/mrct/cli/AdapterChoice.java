package org.metaroce.mrct.cli;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.metaroce.mrct.harness.spec.Specification;
import org.metaroce.mrct.spi.AdapterOption;
import org.metaroce.mrct.spi.AdapterOptions;
import org.metaroce.mrct.spi.AdapterProvider;
import org.metaroce.mrct.spi.AdapterProviders;
import org.metaroce.mrct.spi.AdapterRequest;
import org.metaroce.mrct.spi.AdapterSetup;
import org.metaroce.mrct.spi.AdapterSetupException;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * {@code --adapter NAME} and the options of every adapter, which the adapters declare themselves
 * ({@link AdapterProvider}, found through {@link java.util.ServiceLoader}): the command line offers each provider's
 * options, hands the chosen provider the values given, and refuses another provider's options. Nothing here knows an
 * adapter by name.
 */
final class AdapterChoice {
    /** The option the adapters' options are listed before in the usage text. */
    static final String OPTIONS_BEFORE = "--quiet";

    private AdapterChoice() {
    }

    /**
     * Adds every provider's options to the command (before {@link #OPTIONS_BEFORE}, in provider order) and lists the
     * providers in {@code --adapter}'s description.
     */
    static final class Transformer implements CommandLine.IModelTransformer {
        @Override
        public CommandSpec transform(final CommandSpec spec) {
            final List<OptionSpec> declared = new ArrayList<>(spec.options());
            declared.forEach(spec::remove);
            for (final OptionSpec option : declared) {
                if (option.longestName().equals(OPTIONS_BEFORE)) {
                    for (final AdapterProvider provider : AdapterProviders.all()) {
                        for (final AdapterOption adapterOption : provider.options()) {
                            spec.addOption(OptionSpec.builder(adapterOption.name()).type(String.class)
                                .paramLabel(adapterOption.paramLabel()).description(adapterOption.description())
                                .build());
                        }
                    }
                }
                spec.addOption(option.longestName().equals("--adapter")
                    ? option.toBuilder().description("the device: " + listing()).build() : option);
            }
            return spec;
        }

        /** {@code reference (the embedded reference NIC, default), socket (...) or replay (...)}. */
        private static String listing() {
            final List<AdapterProvider> all = AdapterProviders.all();
            final StringBuilder text = new StringBuilder();
            for (int i = 0; i < all.size(); i++) {
                text.append(i == 0 ? "" : i == all.size() - 1 ? " or " : ", ").append(all.get(i).name()).append(" (")
                    .append(all.get(i).description()).append(')');
            }
            return text.toString();
        }
    }

    /** The provider named, or a usage problem listing them. */
    static AdapterProvider provider(final String name) throws RunCommand.UsageProblem {
        final AdapterProvider provider = AdapterProviders.byName(name);
        if (provider == null) {
            throw new RunCommand.UsageProblem("unknown adapter '" + name + "' (available: "
                + String.join(", ", AdapterProviders.names()) + ")");
        }
        return provider;
    }

    /**
     * Configures {@code provider} from the command line: the options of other adapters and a fault for a provider
     * without {@link AdapterProvider.Trait#FAULTS} are refused.
     */
    static AdapterSetup configure(final AdapterProvider provider, final CommandSpec command, final String fault,
                                  final Specification spec, final PrintStream out, final PrintStream err)
        throws RunCommand.UsageProblem, AdapterSetupException {
        final List<String> faulty = new ArrayList<>();
        for (final AdapterProvider other : AdapterProviders.all()) {
            if (other.traits().contains(AdapterProvider.Trait.FAULTS)) {
                faulty.add(other.name());
            }
            if (other == provider) {
                continue;
            }
            for (final AdapterOption option : other.options()) {
                if (command.findOption(option.name()).getValue() != null) {
                    throw new RunCommand.UsageProblem(option.name() + " applies to the " + other.name()
                        + " adapter only");
                }
            }
        }
        if (fault != null && !provider.traits().contains(AdapterProvider.Trait.FAULTS)) {
            throw new RunCommand.UsageProblem("--fault applies to the " + String.join(" or ", faulty)
                + " adapter only");
        }
        final Map<String, String> given = new LinkedHashMap<>();
        for (final AdapterOption option : provider.options()) {
            given.put(option.name(), command.findOption(option.name()).getValue());
        }
        return provider.configure(new AdapterRequest(spec, new AdapterOptions(provider.options(), given), fault,
            out::println, line -> err.println("mrct run: " + line)));
    }
}
