package org.metaroce.mrct.reports;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.StringReader;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.transform.stream.StreamSource;
import javax.xml.validation.Schema;
import javax.xml.validation.SchemaFactory;
import javax.xml.validation.Validator;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.xml.sax.InputSource;
import org.xml.sax.SAXException;

/** Validates and reads {@code junit.xml} files in tests: XSD {@code junit-ci.xsd}, then the counts the XSD cannot see. */
final class JunitXml {
    private static final Schema SCHEMA = load();

    private JunitXml() {
    }

    private static Schema load() {
        final URL xsd = JunitXml.class.getResource("/junit-ci.xsd");
        try {
            final SchemaFactory factory = SchemaFactory.newInstance(XMLConstants.W3C_XML_SCHEMA_NS_URI);
            factory.setProperty(XMLConstants.ACCESS_EXTERNAL_DTD, "");
            factory.setProperty(XMLConstants.ACCESS_EXTERNAL_SCHEMA, "");
            return factory.newSchema(xsd);
        } catch (SAXException e) {
            throw new IllegalStateException("junit-ci.xsd does not load", e);
        }
    }

    /** Throws when {@code xml} is not valid against the XSD. */
    static void validate(final String xml) throws SAXException, IOException {
        final Validator validator = SCHEMA.newValidator();
        validator.setProperty(XMLConstants.ACCESS_EXTERNAL_DTD, "");
        validator.validate(new StreamSource(new StringReader(xml)));
    }

    /** Validates the file against the XSD and checks that every count attribute matches the elements. */
    static Document validated(final Path file) throws Exception {
        final String xml = Files.readString(file);
        validate(xml);
        final Document document = parse(xml);
        final Element root = document.getDocumentElement();
        int tests = 0;
        int failures = 0;
        int errors = 0;
        int skipped = 0;
        for (final Element suite : children(root, "testsuite")) {
            final List<Element> cases = children(suite, "testcase");
            final int f = count(cases, "failure");
            final int e = count(cases, "error");
            final int s = count(cases, "skipped");
            assertThat(Integer.parseInt(suite.getAttribute("tests"))).as("tests of " + suite.getAttribute("name"))
                .isEqualTo(cases.size());
            assertThat(Integer.parseInt(suite.getAttribute("failures"))).isEqualTo(f);
            assertThat(Integer.parseInt(suite.getAttribute("errors"))).isEqualTo(e);
            assertThat(Integer.parseInt(suite.getAttribute("skipped"))).isEqualTo(s);
            tests += cases.size();
            failures += f;
            errors += e;
            skipped += s;
        }
        assertThat(Integer.parseInt(root.getAttribute("tests"))).isEqualTo(tests);
        assertThat(Integer.parseInt(root.getAttribute("failures"))).isEqualTo(failures);
        assertThat(Integer.parseInt(root.getAttribute("errors"))).isEqualTo(errors);
        assertThat(Integer.parseInt(root.getAttribute("skipped"))).isEqualTo(skipped);
        return document;
    }

    static Document parse(final String xml) throws Exception {
        final DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        return factory.newDocumentBuilder().parse(new InputSource(new StringReader(xml)));
    }

    static List<Element> children(final Node parent, final String name) {
        final List<Element> out = new ArrayList<>();
        for (Node child = parent.getFirstChild(); child != null; child = child.getNextSibling()) {
            if (child instanceof Element element && element.getTagName().equals(name)) {
                out.add(element);
            }
        }
        return out;
    }

    static Element child(final Node parent, final String name) {
        final List<Element> all = children(parent, name);
        return all.isEmpty() ? null : all.get(0);
    }

    /** The {@code <testcase>} whose name starts with {@code id + " "}. */
    static Element testcase(final Document document, final String id) {
        for (final Element suite : children(document.getDocumentElement(), "testsuite")) {
            for (final Element testcase : children(suite, "testcase")) {
                if (testcase.getAttribute("name").startsWith(id + " ")) {
                    return testcase;
                }
            }
        }
        throw new AssertionError("no testcase " + id);
    }

    private static int count(final List<Element> cases, final String outcome) {
        int n = 0;
        for (final Element testcase : cases) {
            n += children(testcase, outcome).size();
        }
        return n;
    }
}
