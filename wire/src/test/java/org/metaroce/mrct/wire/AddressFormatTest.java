package org.metaroce.mrct.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import org.junit.jupiter.api.Test;

class AddressFormatTest {
    private static String format(final String text) throws Exception {
        return DecodedFrame.formatAddress(InetAddress.getByName(text).getAddress());
    }

    @Test
    void ipv6UsesTheCanonicalForm() throws Exception {
        assertThat(format("2001:0db8:0000:0000:0000:0000:0000:0001")).isEqualTo("2001:db8::1");
        assertThat(format("::1")).isEqualTo("::1");
        assertThat(format("::")).isEqualTo("::");
        assertThat(format("fe80::")).isEqualTo("fe80::");
        assertThat(format("2001:db8:0:1:0:0:0:1")).isEqualTo("2001:db8:0:1::1");
        assertThat(format("2001:db8:0:0:1:0:0:1")).isEqualTo("2001:db8::1:0:0:1");
        assertThat(format("2001:db8:1:1:1:1:0:1")).isEqualTo("2001:db8:1:1:1:1:0:1");
        assertThat(format("2001:DB8::ABCD")).isEqualTo("2001:db8::abcd");
    }

    @Test
    void ipv4IsDottedDecimal() throws Exception {
        assertThat(format("198.51.100.2")).isEqualTo("198.51.100.2");
        assertThat(format("255.0.10.1")).isEqualTo("255.0.10.1");
    }
}
