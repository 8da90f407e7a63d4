package org.metaroce.mrct.spi;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.metaroce.mrct.harness.cases.Expr;

/**
 * The values of an {@link AdapterProvider}'s options as the user gave them, with the declared defaults for the
 * others, and the typed readings a provider needs. Every malformed value is an {@link AdapterSetupException} naming
 * the option and the value.
 */
public final class AdapterOptions {
    private final Map<String, AdapterOption> declared = new LinkedHashMap<>();
    private final Map<String, String> given;

    /**
     * @param declared the provider's options
     * @param given the values given, by option name; options not given are absent (or null)
     */
    public AdapterOptions(final List<AdapterOption> declared, final Map<String, String> given) {
        for (final AdapterOption option : declared) {
            this.declared.put(option.name(), option);
        }
        this.given = new LinkedHashMap<>(given);
        this.given.values().removeIf(v -> v == null);
        for (final String name : this.given.keySet()) {
            if (!this.declared.containsKey(name)) {
                throw new IllegalArgumentException("not an option of this adapter: " + name);
            }
        }
    }

    /** Options not given at all (every declared default applies). */
    public static AdapterOptions none(final List<AdapterOption> declared) {
        return new AdapterOptions(declared, Map.of());
    }

    /** Whether the user gave {@code name}. */
    public boolean given(final String name) {
        return given.containsKey(name);
    }

    /** The value of {@code name}: the one given, else its default, else null. */
    public String value(final String name) {
        final AdapterOption option = declared.get(name);
        if (option == null) {
            throw new IllegalArgumentException("not a declared option: " + name);
        }
        final String value = given.get(name);
        return value != null ? value : option.defaultValue();
    }

    /** The value of {@code name} as a path, or null. */
    public Path path(final String name) throws AdapterSetupException {
        final String value = value(name);
        try {
            return value == null ? null : Path.of(value);
        } catch (InvalidPathException e) {
            throw new AdapterSetupException(name + " takes a file name, not '" + value + "'");
        }
    }

    /** The value of {@code name} as a duration in nanoseconds ({@code 200us}, {@code 20ms}, {@code 10s}). */
    public long duration(final String name) throws AdapterSetupException {
        return parseDuration(name, value(name));
    }

    /** The value of {@code name} as a positive byte size ({@code 4096}, {@code 64KiB}, {@code 256MiB}). */
    public long size(final String name) throws AdapterSetupException {
        return parseSize(name, value(name));
    }

    /** A duration in nanoseconds, as case files write them ({@code 200us}, {@code 20ms}, {@code 10s}). */
    public static long parseDuration(final String option, final String text) throws AdapterSetupException {
        try {
            return Expr.parse(text).eval(n -> null);
        } catch (RuntimeException e) {
            throw new AdapterSetupException(option + " takes a duration such as 200us or 20ms, not '" + text + "'");
        }
    }

    /** A positive byte size: {@code 4096}, {@code 64KiB}, {@code 256MiB}, {@code 1GiB} (also KB, MB, GB). */
    public static long parseSize(final String option, final String text) throws AdapterSetupException {
        final String t = text.trim().toLowerCase(Locale.ROOT);
        int end = 0;
        while (end < t.length() && Character.isDigit(t.charAt(end))) {
            end++;
        }
        final long unit = switch (t.substring(end)) {
            case "", "b" -> 1L;
            case "k", "kb", "kib" -> 1L << 10;
            case "m", "mb", "mib" -> 1L << 20;
            case "g", "gb", "gib" -> 1L << 30;
            default -> -1L;
        };
        if (end == 0 || unit < 0) {
            throw new AdapterSetupException(option + " takes a size such as 4096, 64KiB, 256MiB or 1GiB, not '"
                + text + "'");
        }
        final long value;
        try {
            value = Math.multiplyExact(Long.parseLong(t.substring(0, end)), unit);
        } catch (NumberFormatException | ArithmeticException e) {
            throw new AdapterSetupException(option + ": '" + text + "' is too large");
        }
        if (value <= 0) {
            throw new AdapterSetupException(option + " must be positive, not '" + text + "'");
        }
        return value;
    }
}
