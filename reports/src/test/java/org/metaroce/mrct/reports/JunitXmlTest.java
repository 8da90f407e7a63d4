package org.metaroce.mrct.reports;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.metaroce.mrct.harness.result.CaseResult;
import org.metaroce.mrct.harness.result.RunListener;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.xml.sax.SAXException;

/** {@code junit.xml}: valid against the CI format's XSD, one suite per area, every verdict mapped as CI servers expect. */
class JunitXmlTest {
    @TempDir
    Path dir;

    private Document run(final List<CaseResult> cases) throws Exception {
        final RunListener listener = Reports.open(dir, EnumSet.of(ReportFormat.JUNIT), Synthetic.spec());
        Synthetic.run(listener, cases, null);
        return JunitXml.validated(dir.resolve("junit.xml"));
    }

    @Test
    void oneSuitePerAreaInTheOrderAreasFirstRan() throws Exception {
        final Document document = run(Synthetic.allVerdicts());
        final List<String> names = new ArrayList<>();
        for (final Element suite : JunitXml.children(document.getDocumentElement(), "testsuite")) {
            names.add(suite.getAttribute("name"));
        }
        assertThat(names).containsExactly("mrct.headers", "mrct.ordering", "mrct.placement", "mrct.atomics",
            "mrct.robustness", "mrct.qp", "mrct.congestion");
        final Element root = document.getDocumentElement();
        assertThat(root.getAttribute("tests")).isEqualTo("8");
        assertThat(root.getAttribute("failures")).isEqualTo("1");
        assertThat(root.getAttribute("errors")).isEqualTo("1");
        assertThat(root.getAttribute("skipped")).isEqualTo("2");
        final Element placement = JunitXml.children(root, "testsuite").get(2);
        assertThat(JunitXml.children(placement, "testcase")).extracting(e -> e.getAttribute("name")).containsExactly(
            "PLC-003[mode=write,pmtu=256] ACKs of a message are coalesced",
            "PLC-003[mode=write,pmtu=1024] ACKs of a message are coalesced");
        assertThat(placement.getAttribute("time")).isEqualTo("0.003");
        assertThat(placement.getAttribute("timestamp")).isEqualTo("2026-03-01T09:30:00");
        final Element properties = JunitXml.child(placement, "properties");
        assertThat(JunitXml.children(properties, "property")).extracting(e -> e.getAttribute("name") + "="
            + e.getAttribute("value")).contains("mrct.seed=-7354920016391124837", "mrct.complete=true",
            "mrct.overall=NON_CONFORMANT", "mrct.vendor=Acme", "mrct.firmware=fw 2.1.0");
    }

    @Test
    void failureNamesTheRuleTheStepAndTheFieldWithTheFullDetailAsText() throws Exception {
        final Element testcase = JunitXml.testcase(run(Synthetic.allVerdicts()), "ORD-004");
        assertThat(testcase.getAttribute("classname")).isEqualTo("mrct.ordering");
        assertThat(testcase.getAttribute("time")).isEqualTo("0.003");
        final Element failure = JunitXml.child(testcase, "failure");
        assertThat(failure.getAttribute("type")).isEqualTo("MR-ORD-001");
        assertThat(failure.getAttribute("message")).isEqualTo("MR-ORD-001, step 4 (expect ACK psn=2 "
            + "sacketh.bitmap=0b101): bth.psn: expected 2 (0x2), actual 1 (0x1); and 1 more field");
        assertThat(failure.getTextContent()).contains(
            "file: ordering/ord-004.yaml:27\n",
            "step 4 (line 27): expect ACK psn=2 sacketh.bitmap=0b101\n",
            "frame: #3 of the case\n",
            "  bth.psn: expected 2 (0x2), actual 1 (0x1)\n",
            "  sacketh.bitmap: expected 5 (0x5), actual 7 (0x7)\n",
            "expected frame:\n  ACKNOWLEDGE psn=2\n",
            "actual frame:\n  ACKNOWLEDGE psn=1 dqpn=0x22\n");
        assertThat(JunitXml.child(testcase, "error")).isNull();
        assertThat(JunitXml.child(testcase, "skipped")).isNull();
    }

    @Test
    void errorSkippedAndWarnMapToWhatCiServersShow() throws Exception {
        final Document document = run(Synthetic.allVerdicts());
        final Element error = JunitXml.child(JunitXml.testcase(document, "QP-001"), "error");
        assertThat(error.getAttribute("message")).isEqualTo("adapter error: modify_qp(RTS) timed out after 5 s");
        assertThat(error.getAttribute("type")).isEqualTo("mrct.ERROR");
        assertThat(JunitXml.testcase(document, "QP-001").getAttribute("time")).isEqualTo("5.100");

        final Element notApplicable = JunitXml.child(JunitXml.testcase(document, "ATM-001"), "skipped");
        assertThat(notApplicable.getAttribute("message"))
            .isEqualTo("not applicable: the profile does not claim PICS item atomics");
        final Element inconclusive = JunitXml.child(JunitXml.testcase(document, "ROB-002"), "skipped");
        assertThat(inconclusive.getAttribute("message")).isEqualTo("inconclusive: the capture dropped 2 frames");
        assertThat(inconclusive.getTextContent()).contains("attempts: 2");

        final Element warn = JunitXml.testcase(document, "PLC-003[mode=write,pmtu=256]");
        assertThat(JunitXml.child(warn, "failure")).isNull();
        assertThat(JunitXml.child(warn, "error")).isNull();
        assertThat(JunitXml.child(warn, "skipped")).isNull();
        // a WARN passes, and says so: in system-err, in properties of its own, and counted by its suite and the run
        assertThat(JunitXml.child(warn, "system-out")).isNull();
        assertThat(JunitXml.child(warn, "system-err").getTextContent())
            .startsWith("WARN MR-PLC-001, step 6 (expect at most 1 ACK): 4 ACKs arrived for message 0\n")
            .contains("parameters: mode=write, pmtu=256");
        assertThat(JunitXml.children(JunitXml.child(warn, "properties"), "property"))
            .extracting(e -> e.getAttribute("name") + "=" + e.getAttribute("value")).containsExactly(
                "mrct.verdict=WARN", "mrct.rule=MR-PLC-001", "mrct.step=6",
                "mrct.warning=MR-PLC-001, step 6 (expect at most 1 ACK): 4 ACKs arrived for message 0");
        final Element placement = (Element) warn.getParentNode();
        assertThat(JunitXml.child(placement, "system-err").getTextContent())
            .isEqualTo("1 of 2 cases passed with a warning (WARN): PLC-003[mode=write,pmtu=256]");
        assertThat(JunitXml.children(JunitXml.child(placement, "properties"), "property"))
            .extracting(e -> e.getAttribute("name") + "=" + e.getAttribute("value")).contains("mrct.warnings=1",
                "mrct.counts=NOT_APPLICABLE=1 PASS=3 WARN=1 INCONCLUSIVE=1 FAIL=1 ERROR=1");
        assertThat(JunitXml.children(JunitXml.child(JunitXml.testcase(document, "ROB-002"), "properties"),
            "property")).extracting(e -> e.getAttribute("value")).startsWith("INCONCLUSIVE");

        final Element pass = JunitXml.testcase(document, "HDR-001");
        assertThat(pass.getElementsByTagName("*").getLength()).isEqualTo(1);
        assertThat(JunitXml.child(pass, "system-out").getTextContent()).isEqualTo("notes:\n  - 1 left-over frame ignored\n");
        assertThat(JunitXml.testcase(document, "CC-001").getElementsByTagName("*").getLength()).isZero();
    }

    @Test
    void hostileStringsStayWellFormedAndReadable() throws Exception {
        final Document document = run(List.of(Synthetic.hostile()));
        final Element testcase = JunitXml.testcase(document, "ROB-666");
        // control characters XML cannot carry become visible \\uXXXX; everything else comes back as it was
        final String readable = Synthetic.HOSTILE.replace("\u0001", "\\u0001").replace("\u0007", "\\u0007")
            .replace("\u001b", "\\u001b").replace("\uD800", "\\ud800");
        assertThat(testcase.getAttribute("name")).isEqualTo("ROB-666 title " + readable);
        final Element failure = JunitXml.child(testcase, "failure");
        assertThat(failure.getAttribute("message")).contains("bth.psn" + readable + ": expected exp " + readable
            + ", actual act " + readable);
        assertThat(failure.getTextContent()).contains("reason: reason " + readable + "\n");
        assertThat(failure.getTextContent()).contains("message: message " + readable + "\n");
    }

    @Test
    void attributeValuesKeepTheirLineBreaks() throws Exception {
        final CaseResult pass = Synthetic.pass();
        final CaseResult multiline = new CaseResult("HDR-002", "HDR-002", "two\nlines\tand a tab", "headers",
            pass.rules(), pass.level(), pass.role(), pass.file(), pass.parameters(), pass.verdict(), pass.reason(),
            null, 1, 1, 1, List.of(), List.of(), java.util.Map.of());
        final Element testcase = JunitXml.testcase(run(List.of(multiline)), "HDR-002");
        assertThat(testcase.getAttribute("name")).isEqualTo("HDR-002 two\nlines\tand a tab");
    }

    @Test
    void anIncompleteRunErrorsInASuiteOfItsOwnUntilItCompletes() throws Exception {
        final RunListener listener = Reports.open(dir, EnumSet.of(ReportFormat.JUNIT), Synthetic.spec());
        listener.runStarted(Synthetic.info(8));
        Document document = JunitXml.validated(dir.resolve("junit.xml"));
        Element run = JunitXml.testcase(document, "run");
        assertThat(JunitXml.child(run, "error").getAttribute("message"))
            .isEqualTo("the report is incomplete: the run has not finished: 0 of 8 cases done so far");
        listener.caseFinished(Synthetic.fail()); // a failure is written at once (passes may wait 500 ms)
        document = JunitXml.validated(dir.resolve("junit.xml"));
        run = JunitXml.testcase(document, "run");
        assertThat(run.getAttribute("classname")).isEqualTo("mrct.run");
        assertThat(JunitXml.child(run, "error").getAttribute("message")).contains("1 of 8 cases done so far");
        assertThat(document.getDocumentElement().getAttribute("errors")).isEqualTo("1");

        listener.runFinished(Synthetic.info(8), Synthetic.summary(List.of(Synthetic.pass()), null, false));
        document = JunitXml.validated(dir.resolve("junit.xml"));
        assertThat(JunitXml.child(JunitXml.testcase(document, "run"), "error").getAttribute("message"))
            .isEqualTo("the run stopped early after 1 of 8 cases: every applicable MUST rule passed");

        final RunListener complete = Reports.open(dir.resolve("complete"), EnumSet.of(ReportFormat.JUNIT), null);
        Synthetic.run(complete, List.of(Synthetic.pass()), null);
        document = JunitXml.validated(dir.resolve("complete/junit.xml"));
        assertThat(JunitXml.children(document.getDocumentElement(), "testsuite"))
            .extracting(e -> e.getAttribute("name")).containsExactly("mrct.headers");
    }

    @Test
    void theSchemaRejectsWhatCiServersWouldRefuse() {
        assertThatThrownBy(() -> JunitXml.validate("<testsuites><testsuite name=\"s\" tests=\"1\" failures=\"0\" "
            + "errors=\"0\"><testcase name=\"x\" time=\"0.1\"/></testsuite></testsuites>"))
            .as("testcase without classname").isInstanceOf(SAXException.class);
        assertThatThrownBy(() -> JunitXml.validate("<testsuites><testsuite name=\"s\" tests=\"1\" failures=\"0\" "
            + "errors=\"0\"><testcase name=\"x\" classname=\"c\" time=\"0.1\"><failure/><error/></testcase>"
            + "</testsuite></testsuites>")).as("two outcomes").isInstanceOf(SAXException.class);
        assertThatThrownBy(() -> JunitXml.validate("<testsuites><testsuite name=\"s\" tests=\"1\" failures=\"0\" "
            + "errors=\"0\"><testcase name=\"x\u0001\" classname=\"c\" time=\"0.1\"/></testsuite></testsuites>"))
            .as("control character").isInstanceOf(SAXException.class);
        assertThatThrownBy(() -> JunitXml.validate("<testsuites><testsuite name=\"s\" tests=\"1\" failures=\"0\" "
            + "errors=\"0\" timestamp=\"2026-03-01T09:30:00Z\"/></testsuites>"))
            .as("timestamp with a zone").isInstanceOf(SAXException.class);
    }
}
