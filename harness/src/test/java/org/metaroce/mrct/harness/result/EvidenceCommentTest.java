package org.metaroce.mrct.harness.result;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The evidence comment format: written and parsed back, values with spaces, percent signs and non-ASCII. */
class EvidenceCommentTest {
    @Test
    void fieldsSurviveFormatAndParseInOrder() {
        final Map<String, String> fields = new LinkedHashMap<>();
        fields.put("case", "PLC-003[mode=write,pmtu=256]");
        fields.put("note", "dropped by the harness: 100% lost \u00e9\n");
        fields.put("empty", "");
        fields.put("time", "-5");

        final String comment = EvidenceComment.format(fields);

        assertThat(comment).startsWith("mrct case=PLC-003[mode=write,pmtu=256] note=dropped%20by%20the%20harness:"
            + "%20100%25%20lost%20%C3%A9%0A empty= time=-5").doesNotContain("\n");
        assertThat(EvidenceComment.parse(comment)).containsExactlyEntriesOf(fields);
    }

    @Test
    void readersAreLenientWhereTheFormatAllowsIt() {
        assertThat(EvidenceComment.decode("50%")).isEqualTo("50%");
        assertThat(EvidenceComment.decode("a%zzb")).isEqualTo("a%zzb");
        assertThat(EvidenceComment.parse("mrct  a=1  b=x=y")).containsEntry("a", "1").containsEntry("b", "x=y");
        assertThat(EvidenceComment.isEvidence("mrct")).isTrue();
        assertThat(EvidenceComment.isEvidence("mrctx a=1")).isFalse();
        assertThat(EvidenceComment.isEvidence(null)).isFalse();
    }

    @Test
    void anythingElseIsRefused() {
        assertThatThrownBy(() -> EvidenceComment.parse("captured by hand"))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not an mrct evidence comment");
        assertThatThrownBy(() -> EvidenceComment.parse("mrct case=A broken"))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("broken");
    }
}
