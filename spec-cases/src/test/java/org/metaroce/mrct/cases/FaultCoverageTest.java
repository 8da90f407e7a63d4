package org.metaroce.mrct.cases;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.metaroce.mrct.harness.spec.Level;
import org.metaroce.mrct.harness.spec.Rule;
import org.metaroce.mrct.reference.Fault;
import org.metaroce.mrct.testing.Fixtures;

/**
 * How many rules the fault profiles prove: a rule is proven by a fault when a fault of the reference NIC breaks it
 * (FaultProfilesTest and FaultBlameTest show that the suite catches each fault and blames its rule). The figure is
 * computed here from {@link Fault#values()} and the specification, so the one the documents state can be checked: when
 * README.md or docs/faults.md carries "rules proven by a fault: N of M MUST rules", N and M must be the computed ones.
 */
class FaultCoverageTest {
    /** Issue 9: fault profiles for at least this many distinct MUST rules. */
    static final int MINIMUM = 80;

    private static final Pattern README_FIGURE =
        Pattern.compile("rules proven by a fault:\\s+(\\d+)\\s+of\\s+(\\d+)\\s+MUST\\s+rules",
            Pattern.CASE_INSENSITIVE);

    @Test
    void faultsProveEnoughDistinctMustRules() throws Exception {
        final Suite suite = new Suite();
        final Set<String> proven = new TreeSet<>();
        for (final Fault fault : Fault.values()) {
            final Rule rule = suite.spec.rule(fault.rule());
            assertThat(rule).as("fault %s breaks %s, a rule of the specification", fault.label(), fault.rule())
                .isNotNull();
            assertThat(rule.level()).as("fault %s breaks a MUST rule", fault.label()).isEqualTo(Level.MUST);
            proven.add(fault.rule());
        }
        final long must = suite.spec.rules().values().stream().filter(r -> r.level() == Level.MUST).count();
        assertThat(proven.size()).as("distinct MUST rules proven by a fault (of %d)", must)
            .isGreaterThanOrEqualTo(MINIMUM);
        for (final String document : new String[] {"README.md", "docs/faults.md"}) {
            final Path path = Fixtures.root().resolve(document);
            if (Files.exists(path)) {
                final Matcher m = README_FIGURE.matcher(Files.readString(path));
                while (m.find()) {
                    assertThat(m.group(1) + " of " + m.group(2)).as("%s's figure of rules proven by a fault", document)
                        .isEqualTo(proven.size() + " of " + must);
                }
            }
        }
    }
}
