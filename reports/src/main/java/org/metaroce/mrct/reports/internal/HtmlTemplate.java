package org.metaroce.mrct.reports.internal;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;

/**
 * The page around the data of {@code report.html}: {@code report.html}, {@code report.css} and {@code report.js}
 * (with {@code report-plots.js} in place of its line {@code // @include report-plots.js ...}) from this package's
 * resources, joined once. The page carries a Content-Security-Policy allowing nothing but its own
 * inline style and script (by SHA-256 hash): no network access of any kind, and no script that a string from a result
 * could inject would run even if the escaping failed.
 */
public final class HtmlTemplate {
    private static final String BASE = "/org/metaroce/mrct/reports/";
    private static final HtmlTemplate INSTANCE = new HtmlTemplate();

    private final byte[] head;
    private final byte[] middle;
    private final byte[] tail;

    private HtmlTemplate() {
        final String page = resource("report.html");
        final String style = resource("report.css");
        final String script = include(resource("report.js"), "report-plots.js");
        final String csp = "default-src 'none'; style-src '" + sha256(style) + "'; script-src '" + sha256(script)
            + "'; img-src 'none'; connect-src 'none'; base-uri 'none'; form-action 'none'";
        final int report = page.indexOf("{{REPORT}}");
        final int spec = page.indexOf("{{SPEC}}");
        if (report < 0 || spec < report) {
            throw new IllegalStateException("report.html template lacks {{REPORT}} before {{SPEC}}");
        }
        head = fill(page.substring(0, report), csp, style, script);
        middle = fill(page.substring(report + "{{REPORT}}".length(), spec), csp, style, script);
        tail = fill(page.substring(spec + "{{SPEC}}".length()), csp, style, script);
    }

    /** The template. */
    public static HtmlTemplate get() {
        return INSTANCE;
    }

    /** Everything before the report data. */
    public byte[] head() {
        return head;
    }

    /** Between the report data and the specification data. */
    public byte[] middle() {
        return middle;
    }

    /** Everything after the specification data. */
    public byte[] tail() {
        return tail;
    }

    private static byte[] fill(final String part, final String csp, final String style, final String script) {
        return part.replace("{{CSP}}", csp).replace("{{STYLE}}", style).replace("{{SCRIPT}}", script)
            .getBytes(StandardCharsets.UTF_8);
    }

    /** {@code script} with its line {@code // @include <name>...} replaced by the resource {@code name}. */
    static String include(final String script, final String name) {
        final String marker = "// @include " + name;
        final int at = script.indexOf(marker);
        if (at < 0 || script.indexOf(marker, at + 1) >= 0) {
            throw new IllegalStateException("report.js must say '" + marker + "' once");
        }
        final int lineStart = script.lastIndexOf('\n', at) + 1;
        final int lineEnd = script.indexOf('\n', at);
        return script.substring(0, lineStart) + resource(name) + script.substring(lineEnd + 1);
    }

    private static String resource(final String name) {
        try (InputStream in = HtmlTemplate.class.getResourceAsStream(BASE + name)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + BASE + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String sha256(final String text) {
        try {
            final byte[] digest = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return "sha256-" + Base64.getEncoder().encodeToString(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
