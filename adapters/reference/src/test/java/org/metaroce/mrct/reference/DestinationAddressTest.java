package org.metaroce.mrct.reference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.metaroce.mrct.spi.QpAttribute;
import org.metaroce.mrct.spi.QpAttributes;
import org.metaroce.mrct.spi.RejectedException;

/**
 * A QP's dest_ip is an address literal: a host name is refused at once, never looked up (a lookup can stall for
 * seconds, and the device's control plane is called with its lock held, by every agent client).
 */
class DestinationAddressTest {
    @Test
    void hostNamesAreRefusedWithoutALookupAndLiteralsAreTaken() throws Exception {
        try (ReferenceAdapter adapter = new ReferenceAdapter(Map.of(), Set.of(), Set.of())) {
            for (final String name : new String[] {"device.example.invalid", "localhost", "1.2.3", "::g"}) {
                assertThatThrownBy(() -> adapter.controlPlane().createQp(QpAttributes.empty()
                    .with(QpAttribute.DEST_IP, name))).as(name).isInstanceOf(RejectedException.class)
                    .hasMessageContaining("dest_ip: ").hasMessageContaining(name);
            }
            assertThat(adapter.controlPlane().createQp(QpAttributes.empty().with(QpAttribute.DEST_IP,
                "198.51.100.1"))).isPositive();
            assertThat(adapter.controlPlane().createQp(QpAttributes.empty().with(QpAttribute.DEST_IP,
                "2001:db8::1"))).isPositive();
        }
    }
}
