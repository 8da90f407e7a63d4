package org.metaroce.mrct.reports.internal;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.metaroce.mrct.harness.result.CaseResult;
import org.metaroce.mrct.harness.result.RuleVerdict;
import org.metaroce.mrct.harness.spec.Rule;
import org.metaroce.mrct.harness.spec.Specification;

/**
 * Maintains {@code report.html}: one self-contained page. The data is the {@code report.json} document (compact,
 * HTML-safe) in {@code <script type="application/json" id="mrct-report">} plus the text of every rule it mentions in
 * {@code id="mrct-spec"}; the page's script draws everything from them with DOM calls (text nodes, never markup).
 * Frames longer than {@link #FRAME_BYTES} carry only their first bytes there, and {@code bytesLength}.
 */
public final class HtmlReportWriter implements ReportWriter {
    /**
     * Bytes of each frame the page carries: every header and the start of the payload. The whole frames are in
     * {@code report.json} and {@code evidence.pcapng}; carrying full 4 KiB payloads would make the page, which is
     * rewritten after every case, several times larger.
     */
    public static final int FRAME_BYTES = 256;

    private final Path file;
    private final org.metaroce.mrct.reports.EvidencePolicy evidence;
    /** Bytes of cases after which later cases carry a narrow window (as {@link JsonReportWriter#BUDGET_BYTES}). */
    public static final long BUDGET_BYTES = 6_000_000L;

    /** The case objects, each rendered once when its case finished, with the separators before them. */
    private final Spill spill;
    private long carried;
    private final Set<String> ruleIds = new TreeSet<>(RuleMatrix.RULE_ORDER);

    public HtmlReportWriter(final Path file) {
        this(file, org.metaroce.mrct.reports.EvidencePolicy.ALL);
    }

    public HtmlReportWriter(final Path file, final org.metaroce.mrct.reports.EvidencePolicy evidence) {
        this.evidence = evidence;
        this.file = file;
        this.spill = Spill.beside(file, "");
    }

    @Override
    public Path file() {
        return file;
    }

    @Override
    public void started(final RunState state) {
        spill.reset();
        ruleIds.clear();
        carried = 0;
    }

    @Override
    public void caseAdded(final CaseResult result, final RunState state) {
        final byte[] fragment = JsonText.HTML_SAFE.bytes(JsonModel.caseResult(result, FRAME_BYTES,
            EvidenceWindow.of(evidence, result, carried >= BUDGET_BYTES), state.last().pcapngBase()), 0);
        spill.append(JsonReport.separator(JsonText.HTML_SAFE, spill.entries()), fragment);
        carried += fragment.length;
        ruleIds.addAll(result.rules());
        if (result.failure() != null && result.failure().rule() != null) {
            ruleIds.add(result.failure().rule());
        }
    }

    @Override
    public void write(final RunState state, final boolean last) throws IOException {
        final HtmlTemplate template = HtmlTemplate.get();
        try {
            AtomicFile.write(file, last, stream -> {
                final OutputStream out = new Spill.Positioned(stream);
                out.write(template.head());
                JsonReport.write(out, JsonText.HTML_SAFE, state, spill.entries(), spill::copyTo);
                out.write(template.middle());
                writeSpec(out, state);
                out.write(template.tail());
            });
            if (last) {
                spill.settled(file);
            }
        } finally {
            if (last) {
                spill.delete();
            }
        }
    }

    private void writeSpec(final OutputStream out, final RunState state) throws IOException {
        final Specification spec = state.spec();
        final Set<String> ids = new TreeSet<>(RuleMatrix.RULE_ORDER);
        ids.addAll(ruleIds);
        for (final RuleVerdict row : state.rules()) {
            ids.add(row.rule());
        }
        try (JsonGenerator g = JsonText.HTML_SAFE.generator(out)) {
            g.writeStartObject();
            g.writeStringField("source", spec == null ? null : Text.wellFormed(spec.source()));
            g.writeStringField("version", spec == null ? null : Text.wellFormed(spec.version()));
            g.writeObjectFieldStart("rules");
            if (spec != null) {
                for (final String id : ids) {
                    final Rule rule = spec.rule(id);
                    if (rule == null) {
                        continue;
                    }
                    g.writeObjectFieldStart(Text.wellFormed(id));
                    g.writeStringField("level", rule.level().name());
                    g.writeStringField("role", rule.role().label());
                    g.writeStringField("pics", rule.pics());
                    g.writeStringField("section", Text.wellFormed(rule.section()));
                    g.writeStringField("text", Text.wellFormed(rule.text()));
                    g.writeEndObject();
                }
            }
            g.writeEndObject();
            g.writeEndObject();
        }
    }
}
