package org.metaroce.mrct.cli;

import java.util.Locale;

/** Byte sizes on the command line: {@code 4096}, {@code 64KiB}, {@code 256MiB}, {@code 1GiB} (also KB, MB, GB). */
final class Sizes {
    private Sizes() {
    }

    /** The size in bytes; {@code option} names the option in the error. */
    static long parse(final String option, final String text) throws RunCommand.UsageProblem {
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
            throw new RunCommand.UsageProblem(option + " takes a size such as 4096, 64KiB, 256MiB or 1GiB, not '"
                + text + "'");
        }
        final long value;
        try {
            value = Math.multiplyExact(Long.parseLong(t.substring(0, end)), unit);
        } catch (NumberFormatException | ArithmeticException e) {
            throw new RunCommand.UsageProblem(option + ": '" + text + "' is too large");
        }
        if (value <= 0) {
            throw new RunCommand.UsageProblem(option + " must be positive, not '" + text + "'");
        }
        return value;
    }
}
