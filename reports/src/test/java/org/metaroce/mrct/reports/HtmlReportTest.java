package org.metaroce.mrct.reports;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metaroce.mrct.harness.result.CaseResult;
import org.metaroce.mrct.harness.result.RunListener;
import org.metaroce.mrct.harness.spec.Level;
import org.metaroce.mrct.harness.spec.Role;

/**
 * {@code report.html}: self-contained and locked down (checked on the file), and drawn correctly by a real browser
 * (headless Chromium; skipped with the reason when it is not installed).
 */
class HtmlReportTest {
    private static final String SVG_NAMESPACE = "'http://www.w3.org/2000/svg'";

    @TempDir
    Path dir;

    private Path write(final List<CaseResult> cases) throws Exception {
        final RunListener listener = Reports.open(dir, EnumSet.of(ReportFormat.HTML), Synthetic.spec());
        Synthetic.run(listener, cases, Synthetic.baseline());
        return dir.resolve("report.html");
    }

    private static List<CaseResult> allWithHostile() {
        final List<CaseResult> cases = new ArrayList<>(Synthetic.allVerdicts());
        cases.add(Synthetic.hostile());
        return cases;
    }

    @Test
    void oneSelfContainedFileWithNoUrlAndAPolicyAllowingOnlyItsOwnStyleAndScript() throws Exception {
        final String html = Files.readString(write(allWithHostile()));
        // the page around the data (the data is text, checked in resultTextCannotLeaveTheDataElement); its only
        // URL-like text is the SVG namespace name, an identifier that is never fetched
        final String page = html.replace(HtmlData.script(html, "mrct-report"), "")
            .replace(HtmlData.script(html, "mrct-spec"), "");
        assertThat(page.length()).isLessThan(html.length() - 1000);
        final String lower = page.replace(SVG_NAMESPACE, "").toLowerCase(Locale.ROOT);
        assertThat(lower).doesNotContain("http:", "https:", "ftp:", "file:", "url(", "@import", "<link", "<iframe",
            "<object", "<embed", "<img", " src=", "href=\"");
        assertThat(html).containsOnlyOnce("<style>").containsOnlyOnce("<script>");
        final Matcher csp = Pattern.compile("<meta http-equiv=\"Content-Security-Policy\" content=\"([^\"]+)\">")
            .matcher(html);
        assertThat(csp.find()).isTrue();
        final String style = between(html, "<style>", "</style>");
        final String script = between(html, "<script>", "</script>");
        assertThat(csp.group(1)).isEqualTo("default-src 'none'; style-src '" + sha256(style) + "'; script-src '"
            + sha256(script) + "'; img-src 'none'; connect-src 'none'; base-uri 'none'; form-action 'none'");
    }

    @Test
    void resultTextCannotLeaveTheDataElement() throws Exception {
        final String html = Files.readString(write(allWithHostile()));
        // exactly the three script elements of the template end: nothing from the results closes one
        assertThat(Pattern.compile("</script", Pattern.CASE_INSENSITIVE).matcher(html).results().count())
            .isEqualTo(3);
        assertThat(html).doesNotContain("<!--", "\u2028", "\u2029");
        final JsonNode report = HtmlData.report(html);
        final JsonNode hostile = report.get("cases").get(8);
        assertThat(hostile.get("title").asText()).isEqualTo("title " + Synthetic.HOSTILE.replace('\uD800', '\uFFFD'));
        assertThat(report.get("cases")).hasSize(9);
        final JsonNode spec = HtmlData.spec(html);
        assertThat(spec.at("/rules/MR-ROB-001/text").asText())
            .isEqualTo("A frame with a bad ICRC is dropped <silently> & counted.");
        assertThat(spec.at("/rules/MR-ORD-001/level").asText()).isEqualTo("MUST");
        assertThat(spec.at("/rules/MR-ATM-001/pics").asText()).isEqualTo("atomics");
    }

    @Test
    void longFramesAreCutInThePageAndWholeInTheJson() throws Exception {
        final CaseResult pass = Synthetic.pass();
        final byte[] big = org.metaroce.mrct.wire.FrameBuilder.of(Synthetic.TO_DUT,
            org.metaroce.mrct.wire.Opcode.SEND_ONLY).psn(0).payload(new byte[1024]).build();
        final CaseResult large = new CaseResult("PLC-010", "PLC-010", "a 1 KiB SEND", "placement", pass.rules(),
            Level.MUST, Role.RESPONDER, "f", java.util.Map.of(), pass.verdict(), "r", null, 1, 1, 1,
            List.of(Synthetic.frame(0, org.metaroce.mrct.harness.result.Direction.TO_DUT, 0, big, 0, "sent"),
                Synthetic.frame(1, org.metaroce.mrct.harness.result.Direction.FROM_DUT, 10, Synthetic.ack(0), 1,
                    "matched")),
            List.of(), java.util.Map.of());
        final RunListener listener = Reports.open(dir, EnumSet.of(ReportFormat.HTML, ReportFormat.JSON), null,
            EvidencePolicy.ALL);
        Synthetic.run(listener, List.of(large), null);
        final JsonNode page = HtmlData.report(Files.readString(dir.resolve("report.html"))).at("/cases/0/evidence");
        assertThat(page.get(0).get("bytes").asText()).isEqualTo(HexFormat.of().formatHex(big, 0, 256));
        assertThat(page.get(0).get("bytesLength").asInt()).isEqualTo(big.length);
        assertThat(page.get(1).has("bytesLength")).isFalse();
        assertThat(page.get(1).get("bytes").asText()).isEqualTo(HexFormat.of().formatHex(Synthetic.ack(0)));
        final JsonNode json = new com.fasterxml.jackson.databind.ObjectMapper()
            .readTree(dir.resolve("report.json").toFile()).at("/cases/0/evidence/0");
        assertThat(json.get("bytes").asText()).isEqualTo(HexFormat.of().formatHex(big));
        assertThat(json.has("bytesLength")).isFalse();
    }

    @Test
    void aBrowserDrawsEveryCaseWithoutAnError(@TempDir final Path profile) throws Exception {
        Chromium.assumeAvailable();
        final Chromium.Page page = Chromium.load(write(Synthetic.allVerdicts()), "expand", profile);
        assertRendered(page);
        final String dom = page.dom();
        for (final CaseResult c : Synthetic.allVerdicts()) {
            assertThat(dom).contains("data-case=\"" + c.id() + "\"");
        }
        assertThat(dom).contains("<span class=\"overall NON_CONFORMANT\" id=\"overall\">NON_CONFORMANT</span>");
        assertThat(dom).doesNotContain("id=\"incomplete\"");
        assertThat(dom).contains("showing 8 of 8 cases");
        assertThat(dom).contains("<tr data-verdict=\"PASS\">").contains("<td class=\"num\">3</td>");
        // rule matrix with the rules' text
        assertThat(dom).contains("<tr data-rule=\"MR-PLC-001\"><td class=\"mono\" title=\"The responder coalesces "
            + "acknowledgements of one message.\">MR-PLC-001</td><td>SHOULD</td><td>responder</td><td>yes</td>");
        assertThat(dom).contains("A frame with a bad ICRC is dropped &lt;silently&gt; &amp; counted.");
        // the failures grouped by root cause, before the rule matrix: ORD-004 (FAIL, MR-ORD-001), PLC-003 (WARN)
        assertThat(dom).contains("Root causes (2)");
        assertThat(dom.indexOf("Root causes (2)")).isLessThan(dom.indexOf("Rule matrix"));
        // the page opens on them: before the counts, the run's facts and the rule matrix, both folded
        assertThat(dom.indexOf("Root causes (2)")).isLessThan(dom.indexOf("<table id=\"counts\">"));
        assertThat(dom).containsPattern("<details id=\"run\" class=\"run\"><summary><h2>Run</h2></summary>")
            .containsPattern("<details id=\"matrix\" class=\"matrix\"><summary><h2>Rule matrix \\(\\d+ rules\\)");
        assertThat(dom).contains("<tr data-cause=\"MR-ORD-001\"><td>1</td>");
        // then the failing cases, each with its rule, step and reason, linked to its details
        assertThat(dom.indexOf("Failing cases (3)")).isGreaterThan(dom.indexOf("Root causes (2)"))
            .isLessThan(dom.indexOf("<table id=\"counts\">"));
        assertThat(dom).contains("<tr data-failing=\"ORD-004\"><td><span class=\"badge v-FAIL\">FAIL</span></td>"
            + "<td class=\"mono small\"><a href=\"#c-1\">ORD-004</a></td><td class=\"mono\">MR-ORD-001</td>"
            + "<td class=\"num\">4</td><td class=\"num\"></td>");

        final String failing = caseSection(dom, 1);
        assertThat(countOf(failing, "<g class=\"arrow")).as("one arrow per frame").isEqualTo(5);
        assertThat(failing).contains(">SEND_ONLY PSN 2<tspan class=\"mark\"> [CE]</tspan>",
            ">SEND_ONLY PSN 1<tspan class=\"mark\"> [ICRC bad]</tspan>",
            "<g class=\"arrow unexpected\" data-frame=\"4\">", ">ACKNOWLEDGE PSN 1<tspan class=\"mark\"> [unexpected]",
            "class=\"hl\"", ">harness</text>", ">DUT</text>", ">9.500</text>");
        assertThat(failing).contains("<td class=\"mono\">sacketh.bitmap</td><td class=\"mono exp\">5 (0x5)</td>"
            + "<td class=\"mono act\">7 (0x7)</td>");
        // steps from 1, as the reason says; no evidence.pcapng in this run, so frames by their index in the case
        assertThat(failing).contains("<dd>4 (line 27): expect ACK psn=2 sacketh.bitmap=0b101</dd>",
            "<dd>#3 of the case</dd>", "<title>frame #3 of the case, FROM_DUT, step 4, matched</title>");
        assertThat(failing).contains("The responder places a packet at its PLETH offset whatever its arrival order.");

        final String dropped = caseSection(dom, 5);
        assertThat(dropped).contains("<g class=\"arrow dropped\" data-frame=\"1\">", "[dropped]", "class=\"drop\"");

        final String congestion = caseSection(dom, 7);
        assertThat(congestion).contains("class=\"plot\"", "data-series=\"cnp\"", "data-series=\"rate_gbps\"",
            ">cnp</text>", ">rate_gbps</text>", ">time</text>", ">value</text>", ">20000</text>");
        assertThat(countOf(congestion, "<path d=\"M")).isEqualTo(2);
        assertThat(caseSection(dom, 2)).contains("parameters: </b><span class=\"mono\">mode=write, pmtu=256</span>");
        // #expand also fills the frames table: bytes and decoded fields of every frame
        assertThat(countOf(failing, "<table class=\"frames\">")).isEqualTo(1);
        assertThat(failing).contains("<td>FROM_DUT</td><td class=\"num\">9.500</td><td class=\"num\"></td>"
            + "<td>unexpected</td>", "\"opname\": \"ACKNOWLEDGE\"");
    }

    @Test
    void aRequesterCaseGetsItsRateModelCnpAndQueuePlots(@TempDir final Path profile) throws Exception {
        Chromium.assumeAvailable();
        final Chromium.Page page = Chromium.load(write(List.of(Synthetic.requesterCongestion())), "expand", profile);
        assertRendered(page);
        final String section = caseSection(page.dom(), 0);
        assertThat(section).contains("<h4>q: window rate, model Rc and CNPs</h4>", "<h4>switch egress queue</h4>");
        assertThat(countOf(section, "<svg class=\"plot cc\"")).isEqualTo(2);
        // axes with units, shared time axis 0-100 us; rates up to 100000 Mb/s, the queue up to 30000 bytes
        assertThat(section).contains(">rate (Mb/s)</text>", ">queue (bytes)</text>",
            ">time since the case started (µs)</text>", ">100000</text>", ">30000</text>", ">100</text>");
        // the model's Rc as a step line: 100000 until 10 us, 50000 until 65 us, then 75000 to the end of the axis
        assertThat(section).contains("<path d=\"M78.0 12.0 L127.2 12.0 L127.2 116.0 L397.8 116.0 L397.8 64.0 "
            + "L570.0 64.0\" class=\"series rc\" stroke=\"#1a7f37\" data-series=\"q.model_rc_mbps\"><title>model Rc of q "
            + "(Mb/s): 100000 from 0 µs, 50000 from 10 µs, 75000 from 65 µs</title></path>");
        // the window rate as a line through its 20 windows, starting at (5 us, 99000 Mb/s)
        assertThat(section).containsPattern("<path d=\"M102\\.6 14\\.1( L[0-9.]+ [0-9.]+){19}\" class=\"series rate\" "
            + "stroke=\"#0969da\" data-series=\"q.rate_mbps\"><title>window rate of q \\(Mb/s, 16 packets each, at the "
            + "time of the 17th\\): 20 windows</title>");
        // one tick per CNP at the bottom of the plot area
        assertThat(section).contains("<g class=\"cnps\" data-series=\"q.cnp\" data-count=\"2\">",
            "<line x1=\"127.2\" y1=\"220\" x2=\"127.2\" y2=\"210\" stroke=\"#cf222e\" class=\"cnp\" data-time=\"10\">"
                + "<title>CNP at 10 µs</title></line>", "data-time=\"60\"><title>CNP at 60 µs</title>");
        assertThat(section).contains(">model Rc (Mb/s)</text>", ">window rate (Mb/s)</text>",
            ">CNP received (2)</text>", ">switch queue (bytes)</text>");
        assertThat(section).contains("data-series=\"switch.queue_bytes\"><title>switch queue (bytes) at each arrival: "
            + "largest 30000</title>");
        // a series of another kind keeps the plain plot
        assertThat(section).contains("<svg class=\"plot\"", "data-series=\"other\"", ">value</text>");
        assertThat(section).doesNotContain("data-series=\"other\"><title>model");
    }

    @Test
    void theCongestionPlotDataIsInThePageAsWritten() throws Exception {
        final String html = Files.readString(write(List.of(Synthetic.requesterCongestion())));
        final JsonNode series = HtmlData.report(html).at("/cases/0/series");
        assertThat(series.get("q.model_rc_mbps").toString()).isEqualTo("[[0.0,100000.0],[10.0,50000.0],"
            + "[65.0,75000.0]]");
        assertThat(series.get("q.cnp").toString()).isEqualTo("[[10.0,0.0],[60.0,0.0]]");
        assertThat(series.get("switch.queue_bytes")).hasSize(11);
        assertThat(series.get("q.rate_mbps")).hasSize(20);
        // the same result gives the same page, byte for byte (apart from the run's clock)
        final Path other = dir.resolve("again");
        final RunListener listener = Reports.open(other, EnumSet.of(ReportFormat.HTML), Synthetic.spec());
        Synthetic.run(listener, List.of(Synthetic.requesterCongestion()), Synthetic.baseline());
        assertThat(HtmlData.report(Files.readString(other.resolve("report.html"))).at("/cases"))
            .isEqualTo(HtmlData.report(html).at("/cases"));
    }

    @Test
    void hostileStringsAreShownAsText(@TempDir final Path profile) throws Exception {
        Chromium.assumeAvailable();
        final Chromium.Page page = Chromium.load(write(allWithHostile()), "expand", profile);
        assertRendered(page);
        final String dom = page.dom();
        assertThat(dom).doesNotContain("<img", "data-pwned");
        assertThat(dom).contains("title &lt;/script&gt;&lt;img src=x onerror=\"document.body.dataset.pwned='1'\"&gt;");
        assertThat(caseSection(dom, 8)).contains("<span class=\"reason\">reason &lt;/script&gt;&lt;img src=x");
        assertThat(dom).contains("data-case=\"ROB-666\"");
    }

    @Test
    void aCaseOfThousandsOfFramesShowsItsPlotsThenTheFramesAroundItsFailureAndWhereTheRestAre(
        @TempDir final Path profile) throws Exception {
        Chromium.assumeAvailable();
        final CaseResult big = BoundedReportsTest.bigFailure();
        final CaseResult plotted = new CaseResult(big.id(), big.caseId(), big.title(), big.area(), big.rules(),
            big.level(), big.role(), big.file(), big.parameters(), big.verdict(), big.reason(), big.failure(),
            big.wallNanos(), big.deviceNanos(), 1, big.evidence(), List.of(), Synthetic.requesterCongestion().series(),
            big.control());
        final RunListener listener = Reports.open(dir, EnumSet.allOf(ReportFormat.class), Synthetic.spec());
        Synthetic.run(listener, List.of(Synthetic.pass(), plotted), null);
        final Chromium.Page page = Chromium.load(dir.resolve("report.html"), "", profile);
        assertRendered(page);
        final String failing = caseSection(page.dom(), 1);
        assertThat(failing).as("the only failing case is open").contains("open=\"\"");
        // HDR-001 had 2 frames: this case's frame i is frame i + 3 of evidence.pcapng
        assertThat(failing).contains("<dd>2003 in evidence.pcapng (#2000 of the case)</dd>",
            "<dd>40 (line 88): expect rate</dd>", "<h3>Frames (3000)</h3>",
            "Showing 49 of the case's 3000 frames, #1968-#2016 (frames 1971-2019 in evidence.pcapng), around the "
                + "failure. See frames 3-3002 in evidence.pcapng for all of them.",
            "<title>frame 2003 in evidence.pcapng (#2000 of the case), TO_DUT, step 21, sent</title>");
        assertThat(countOf(failing, "<g class=\"arrow")).isEqualTo(49);
        assertThat(page.dom()).contains("<td class=\"num\">40</td><td class=\"num\">2003</td>");
        assertThat(failing.indexOf("class=\"ladder\"")).as("plots above the ladder")
            .isGreaterThan(failing.indexOf("<h3>Series</h3>")).isPositive();
    }

    @Test
    void aPartialReportSaysSoAndOpensTheFailingCase(@TempDir final Path profile) throws Exception {
        Chromium.assumeAvailable();
        final RunListener listener = Reports.open(dir, EnumSet.of(ReportFormat.HTML), Synthetic.spec());
        listener.runStarted(Synthetic.info(8));
        listener.caseFinished(Synthetic.pass());
        listener.caseFinished(Synthetic.fail());
        final Chromium.Page page = Chromium.load(dir.resolve("report.html"), "", profile);
        assertRendered(page);
        assertThat(page.dom()).contains("id=\"incomplete\">Partial report: the run has not finished (2 of 8 cases so"
            + " far). Reload when it has.</p>", "<span class=\"overall INCOMPLETE\" id=\"overall\">INCOMPLETE</span>");
        assertThat(page.dom()).containsPattern("<details class=\"case\" id=\"c-1\"[^>]*data-verdict=\"FAIL\""
            + "[^>]*open=\"\"");
        assertThat(page.dom()).doesNotContainPattern("<details class=\"case\" id=\"c-0\"[^>]*open=\"\"");
    }

    private static void assertRendered(final Chromium.Page page) {
        assertThat(page.console()).as("console output of the page").isEmpty();
        assertThat(page.dom()).as("rendered mark (errors: %s)", page.dom().replaceAll("(?s).*data-errors=\"([^\"]*)\""
            + ".*", "$1")).contains("data-rendered=\"ok\"");
        assertThat(page.dom()).contains("data-errors=\"\"");
    }

    /** The DOM of the n-th case's details element (up to the next case). */
    private static String caseSection(final String dom, final int index) {
        final int start = dom.indexOf("<details class=\"case\" id=\"c-" + index + "\"");
        assertThat(start).as("case c-%d in the DOM", index).isNotNegative();
        final int next = dom.indexOf("<details class=\"case\" id=\"c-" + (index + 1) + "\"", start);
        return next < 0 ? dom.substring(start) : dom.substring(start, next);
    }

    private static int countOf(final String text, final String needle) {
        int count = 0;
        for (int at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + 1)) {
            count++;
        }
        return count;
    }

    private static String between(final String text, final String open, final String close) {
        final int start = text.indexOf(open) + open.length();
        return text.substring(start, text.indexOf(close, start));
    }

    private static String sha256(final String text) throws Exception {
        return "sha256-" + Base64.getEncoder().encodeToString(MessageDigest.getInstance("SHA-256")
            .digest(text.getBytes(StandardCharsets.UTF_8)));
    }
}
