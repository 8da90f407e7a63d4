package org.metaroce.mrct.cli.internal;

import java.util.Locale;
import java.util.Map;

/**
 * What a stream of {@code mrct} may do with the terminal: colour (ANSI SGR) and rewrite a live line. Decided once per
 * stream from whether it is a terminal and from the environment: never colour when {@code NO_COLOR} is set to
 * anything non-empty (no-color.org) or {@code TERM} is {@code dumb}, never into a pipe or a file.
 *
 * <p>Whether a stream is a terminal: the {@code ./mrct} launcher tests each with {@code [ -t ]} and passes
 * {@code -Dmrct.tty=out,err} (the ones that are); a JVM started otherwise only knows {@code System.console()}, which
 * exists when the standard input and output both are terminals, and then takes both streams for terminals.
 */
public final class Terminal {
    /** No colour, no live line: pipes, files, tests. */
    public static final Terminal PLAIN = new Terminal(false, false);

    private static final String RESET = "\033[0m";
    private static final String RED = "\033[1;31m";
    private static final String GREEN = "\033[32m";
    private static final String YELLOW = "\033[33m";

    private final boolean live;
    private final boolean colour;

    private Terminal(final boolean live, final boolean colour) {
        this.live = live;
        this.colour = colour;
    }

    /**
     * The terminal abilities of the standard output ({@code stream} "out") or error stream ("err").
     *
     * @param ttyProperty the value of {@code mrct.tty}, or null when not set
     * @param console whether {@code System.console()} exists
     * @param env the environment
     */
    public static Terminal of(final String stream, final String ttyProperty, final boolean console,
                              final Map<String, String> env) {
        final boolean tty = ttyProperty != null ? ("," + ttyProperty.replace(" ", "") + ",").contains("," + stream
            + ",") : console;
        if (!tty) {
            return PLAIN;
        }
        final String noColour = env.get("NO_COLOR");
        final boolean dumb = "dumb".equals(env.getOrDefault("TERM", "").toLowerCase(Locale.ROOT));
        return new Terminal(!dumb, !dumb && (noColour == null || noColour.isEmpty()));
    }

    /** The abilities of the process's own stream "out" or "err". */
    public static Terminal ofProcess(final String stream) {
        return of(stream, System.getProperty("mrct.tty"), System.console() != null, System.getenv());
    }

    /** Whether a line may be rewritten in place (carriage return). */
    public boolean live() {
        return live;
    }

    /** Whether colour is written. */
    public boolean colour() {
        return colour;
    }

    /**
     * {@code text} in the colour of a verdict or an overall result ({@code FAIL}, {@code NON_CONFORMANT}, ...): red for
     * failing ones, yellow for warnings and inconclusive ones, green for passing ones; as it is without colour.
     */
    public String verdict(final String verdict, final String text) {
        if (!colour) {
            return text;
        }
        final String code = switch (verdict) {
            case "FAIL", "ERROR", "NON_CONFORMANT" -> RED;
            case "WARN", "INCONCLUSIVE", "INCOMPLETE" -> YELLOW;
            case "PASS", "CONFORMANT" -> GREEN;
            default -> null;
        };
        return code == null ? text : code + text + RESET;
    }
}
