package org.metaroce.mrct.spi;

import java.util.Objects;

/**
 * One option of an {@link AdapterProvider}, taking one value: {@code --iface IF}.
 *
 * @param name the option with its dashes ({@code --iface})
 * @param paramLabel what the value is, for the usage text ({@code IF}, {@code HOST:PORT})
 * @param description one sentence for the usage text, defaults included
 * @param defaultValue the value when the option is not given, or null
 */
public record AdapterOption(String name, String paramLabel, String description, String defaultValue) {
    public AdapterOption {
        Objects.requireNonNull(name, "name");
        if (!name.startsWith("--")) {
            throw new IllegalArgumentException("an adapter option is long, --name: " + name);
        }
        Objects.requireNonNull(paramLabel, "paramLabel");
        Objects.requireNonNull(description, "description");
    }

    /** An option without a default. */
    public static AdapterOption of(final String name, final String paramLabel, final String description) {
        return new AdapterOption(name, paramLabel, description, null);
    }
}
