package org.metaroce.mrct.spi;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.ServiceLoader;
import java.util.Set;

/** The {@link AdapterProvider}s on the class path, found once through {@link ServiceLoader}. */
public final class AdapterProviders {
    private static volatile List<AdapterProvider> found;

    private AdapterProviders() {
    }

    /**
     * Every provider, by {@link AdapterProvider#position()} then name.
     *
     * @throws IllegalStateException two providers share a name or an option name
     */
    public static List<AdapterProvider> all() {
        List<AdapterProvider> list = found;
        if (list == null) {
            list = load(ServiceLoader.load(AdapterProvider.class, AdapterProviders.class.getClassLoader()));
            found = list;
        }
        return list;
    }

    /** The provider named {@code name}, or null. */
    public static AdapterProvider byName(final String name) {
        for (final AdapterProvider provider : all()) {
            if (provider.name().equals(name)) {
                return provider;
            }
        }
        return null;
    }

    /** The names of every provider, in order. */
    public static List<String> names() {
        final List<String> names = new ArrayList<>();
        all().forEach(p -> names.add(p.name()));
        return names;
    }

    static List<AdapterProvider> load(final Iterable<AdapterProvider> loader) {
        final List<AdapterProvider> list = new ArrayList<>();
        loader.forEach(list::add);
        list.sort(Comparator.comparingInt(AdapterProvider::position).thenComparing(AdapterProvider::name));
        final Set<String> names = new HashSet<>();
        final Set<String> options = new HashSet<>();
        for (final AdapterProvider provider : list) {
            if (!names.add(provider.name())) {
                throw new IllegalStateException("two adapter providers are named '" + provider.name() + "'");
            }
            for (final AdapterOption option : provider.options()) {
                if (!options.add(option.name())) {
                    throw new IllegalStateException("the option " + option.name() + " of adapter '"
                        + provider.name() + "' is declared by another adapter too");
                }
            }
        }
        return List.copyOf(list);
    }
}
