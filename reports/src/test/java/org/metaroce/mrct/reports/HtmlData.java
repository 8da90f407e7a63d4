package org.metaroce.mrct.reports;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;

/** Reads the data embedded in a {@code report.html}. */
final class HtmlData {
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private HtmlData() {
    }

    /** The content of {@code <script type="application/json" id="<id>">}, as the browser would take it. */
    static String script(final String html, final String id) {
        final String open = "<script type=\"application/json\" id=\"" + id + "\">";
        final int start = html.indexOf(open);
        if (start < 0) {
            throw new AssertionError("no " + open);
        }
        // the HTML parser ends a script element at the first "</script" whatever its case
        final int end = html.toLowerCase(java.util.Locale.ROOT).indexOf("</script", start + open.length());
        return html.substring(start + open.length(), end);
    }

    static JsonNode report(final String html) throws IOException {
        return MAPPER.readTree(script(html, "mrct-report"));
    }

    static JsonNode spec(final String html) throws IOException {
        return MAPPER.readTree(script(html, "mrct-spec"));
    }
}
