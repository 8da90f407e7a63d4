package org.metaroce.mrct.harness.engine;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.metaroce.mrct.oracle.ReactionPoint;

/**
 * The glue between a case's connection and the oracle's DCQCN model (the model itself is tested in the oracle module):
 * the constants come from the QP's own attributes over the declared parameters.
 */
class RequesterStepsDcqcnTest {
    @Test
    void theQpsOwnRatioAttributesWinOverTheDeclaredParameters() {
        final Connection c = new Connection("q", 1, 0x123, 0x456, 0, 0,
            org.metaroce.mrct.wire.Encapsulation.ipv4("198.51.100.1", "198.51.100.2"), 1, 0xFFFF, 1024, 128);
        c.createdWith(org.metaroce.mrct.spi.QpAttributes.empty()
            .with(org.metaroce.mrct.spi.QpAttribute.DCQCN_ALPHA_INIT, 0L));
        final RequesterSteps steps = new RequesterSteps(null, new java.util.HashMap<>(), n -> null, 0, 0,
            java.util.Map.of("dcqcn_alpha_init", 1.0, "dcqcn_g", 0.5));
        final ReactionPoint model = steps.model(c, 0);
        assertThat(model.at(0).alpha()).isZero();
        final Connection plain = new Connection("r", 1, 0x124, 0x457, 0, 0,
            org.metaroce.mrct.wire.Encapsulation.ipv4("198.51.100.1", "198.51.100.2"), 1, 0xFFFF, 1024, 128);
        assertThat(steps.model(plain, 0).at(0).alpha()).isEqualTo(1.0);
    }
}
