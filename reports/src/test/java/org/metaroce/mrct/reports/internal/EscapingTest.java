package org.metaroce.mrct.reports.internal;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

/** The escaping and formatting helpers the writers share. */
class EscapingTest {
    @Test
    void wellFormedReplacesOnlyUnpairedSurrogates() {
        assertThat(Text.wellFormed("a\uD83D\uDE00b")).isEqualTo("a\uD83D\uDE00b");
        assertThat(Text.wellFormed("a\uD800b\uDC00c\uD800")).isEqualTo("a\uFFFDb\uFFFDc\uFFFD");
        assertThat(Text.wellFormed(null)).isNull();
        final String plain = "no surrogates";
        assertThat(Text.wellFormed(plain)).isSameAs(plain);
    }

    @Test
    void oneLineCollapsesAndCutsWithoutSplittingAPair() {
        assertThat(Text.oneLine(" a\n\tb  c ", 100)).isEqualTo("a b c");
        assertThat(Text.oneLine("abcdef", 4)).isEqualTo("abc…");
        assertThat(Text.oneLine("ab\uD83D\uDE00cd", 4)).isEqualTo("ab…");
    }

    @Test
    void xmlEscapesMarkupAndMakesIllegalCharactersVisible() {
        assertThat(Xml.text("<a & 'b' \"c\">\n\t\r")).isEqualTo("&lt;a &amp; 'b' \"c\"&gt;\n\t&#13;");
        assertThat(Xml.attribute("<a & 'b' \"c\">\n\t\r")).isEqualTo("&lt;a &amp; &apos;b&apos; &quot;c&quot;&gt;"
            + "&#10;&#9;&#13;");
        assertThat(Xml.text("\u0000\u001f\uFFFE\uD800x\uD83D\uDE00")).isEqualTo("\\u0000\\u001f\\ufffe\\ud800x"
            + "\uD83D\uDE00");
        assertThat(Xml.text(null)).isEmpty();
    }

    @Test
    void markdownInlineNeutralisesSyntax() {
        assertThat(Markdown.inline("a|b *c* _d_ `e` [f](g) <h> & #i ~j \\k", 200))
            .isEqualTo("a\\|b \\*c\\* \\_d\\_ \\`e\\` \\[f\\](g) &lt;h&gt; &amp; \\#i \\~j \\\\k");
        assertThat(Markdown.inline("line\nbreak\u0001", 200)).isEqualTo("line break");
    }

    @Test
    void secondsHaveThreeExactDecimals() {
        assertThat(Times.seconds(0)).isEqualTo("0.000");
        assertThat(Times.seconds(1_499_999)).isEqualTo("0.001");
        assertThat(Times.seconds(1_500_000)).isEqualTo("0.002");
        assertThat(Times.seconds(5_100_000_000L)).isEqualTo("5.100");
        assertThat(Times.seconds(-5)).isEqualTo("0.000");
        assertThat(Times.seconds(Long.MAX_VALUE)).isEqualTo("9223372036.855");
    }

    @Test
    void htmlSafeJsonEscapesEverythingThatCouldEndTheScriptElement() {
        final ObjectNode node = JsonNodeFactory.instance.objectNode();
        node.put("k</script>", "<!-- & > \u2028\u2029 é");
        assertThat(JsonText.HTML_SAFE.fragment(node, 0)).isEqualTo("{\"k\\u003C/script\\u003E\":"
            + "\"\\u003C!-- \\u0026 \\u003E \\u2028\\u2029 é\"}");
        assertThat(JsonText.PRETTY.fragment(node, 0)).isEqualTo("{\n  \"k</script>\": \"<!-- & > \u2028\u2029 é\"\n}");
    }

    @Test
    void hexIsLowerCaseTwoDigitsAByte() {
        assertThat(Text.hex(new byte[] {0, 1, (byte) 0xAB, (byte) 0xFF, 0x10})).isEqualTo("0001abff10");
        assertThat(Text.hex(null)).isEmpty();
    }
}
