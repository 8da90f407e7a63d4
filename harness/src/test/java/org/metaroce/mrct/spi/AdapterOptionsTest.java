package org.metaroce.mrct.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AdapterOptionsTest {
    private static final List<AdapterOption> DECLARED = List.of(
        AdapterOption.of("--from", "FILE", "a file"),
        new AdapterOption("--wait", "DURATION", "how long", "10s"),
        new AdapterOption("--buffer", "SIZE", "how much", "256MiB"));

    @Test
    void aValueGivenWinsOverTheDefaultAndAbsentOnesAreNull() throws Exception {
        final AdapterOptions options = new AdapterOptions(DECLARED, Map.of("--wait", "20ms"));
        assertThat(options.given("--wait")).isTrue();
        assertThat(options.duration("--wait")).isEqualTo(20_000_000L);
        assertThat(options.given("--buffer")).isFalse();
        assertThat(options.size("--buffer")).isEqualTo(256L << 20);
        assertThat(options.value("--from")).isNull();
        assertThat(options.path("--from")).isNull();
        assertThat(AdapterOptions.none(DECLARED).duration("--wait")).isEqualTo(10_000_000_000L);
    }

    @Test
    void aNullValueCountsAsNotGiven() throws Exception {
        final Map<String, String> given = new HashMap<>();
        given.put("--from", null);
        final AdapterOptions options = new AdapterOptions(DECLARED, given);
        assertThat(options.given("--from")).isFalse();
        assertThat(new AdapterOptions(DECLARED, Map.of("--from", "x/y.pcapng")).path("--from"))
            .isEqualTo(Path.of("x/y.pcapng"));
    }

    @Test
    void malformedValuesNameTheOptionAndTheValue() {
        assertThatThrownBy(() -> new AdapterOptions(DECLARED, Map.of("--wait", "soon")).duration("--wait"))
            .isInstanceOf(AdapterSetupException.class)
            .hasMessage("--wait takes a duration such as 200us or 20ms, not 'soon'");
        assertThatThrownBy(() -> new AdapterOptions(DECLARED, Map.of("--buffer", "lots")).size("--buffer"))
            .isInstanceOf(AdapterSetupException.class)
            .hasMessage("--buffer takes a size such as 4096, 64KiB, 256MiB or 1GiB, not 'lots'");
        assertThatThrownBy(() -> AdapterOptions.parseSize("--buffer", "0KiB"))
            .hasMessage("--buffer must be positive, not '0KiB'");
        assertThatThrownBy(() -> AdapterOptions.parseSize("--buffer", "99999999999999GiB"))
            .hasMessage("--buffer: '99999999999999GiB' is too large");
    }

    @Test
    void sizesTakeBinaryUnits() throws Exception {
        assertThat(AdapterOptions.parseSize("--s", "4096")).isEqualTo(4096);
        assertThat(AdapterOptions.parseSize("--s", "64KiB")).isEqualTo(64 << 10);
        assertThat(AdapterOptions.parseSize("--s", "2MB")).isEqualTo(2 << 20);
        assertThat(AdapterOptions.parseSize("--s", "1g")).isEqualTo(1L << 30);
    }

    @Test
    void anOptionTheProviderDidNotDeclareIsAProgrammingError() {
        assertThatThrownBy(() -> new AdapterOptions(DECLARED, Map.of("--iface", "eth0")))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--iface");
        assertThatThrownBy(() -> AdapterOptions.none(DECLARED).value("--iface"))
            .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> AdapterOption.of("-i", "IF", "short"))
            .isInstanceOf(IllegalArgumentException.class);
    }
}
