package org.metaroce.mrct.harness.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.metaroce.mrct.harness.profile.DeviceProfile;
import org.metaroce.mrct.harness.spec.Specification;

/** Enumerated parameters become case names holding the index of the declared word in Appendix B's list. */
class EnumerationIndicesTest {
    private static DeviceProfile profile(final Map<String, Object> parameters) {
        return new DeviceProfile("p", "v", "m", "f", Set.of(), parameters, "");
    }

    @Test
    void theDefaultsAreTheFirstWords() {
        assertThat(CaseSetup.enumerationIndices(profile(Map.of()), Specification.bundled()))
            .containsEntry("cnp_scope", 0L).containsEntry("atomic_memory_order", 0L);
    }

    @Test
    void declaredWordsGiveTheirIndex() {
        final Map<String, Long> names = CaseSetup.enumerationIndices(profile(Map.of("cnp_scope", "per-port",
            "atomic_memory_order", "big-endian")), Specification.bundled());
        assertThat(names).containsEntry("cnp_scope", 2L).containsEntry("atomic_memory_order", 1L)
            .doesNotContainKey("recv_window");
        assertThat(CaseSetup.enumerationIndices(profile(Map.of("cnp_scope", "Per-Destination")),
            Specification.bundled())).containsEntry("cnp_scope", 1L);
    }
}
