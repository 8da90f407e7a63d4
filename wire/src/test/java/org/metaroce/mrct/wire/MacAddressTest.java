package org.metaroce.mrct.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Locale;
import java.util.Random;
import java.util.StringJoiner;
import org.junit.jupiter.api.Test;

class MacAddressTest {
    @Test
    void formatsSixLowerCasePairsOfTheLow48Bits() {
        assertThat(MacAddress.format(0x0200_0000_000AL)).isEqualTo("02:00:00:00:00:0a");
        assertThat(MacAddress.format(0xFFFF_AABB_CCDD_EEFFL)).isEqualTo("aa:bb:cc:dd:ee:ff");
        assertThat(MacAddress.format(0)).isEqualTo("00:00:00:00:00:00");
    }

    @Test
    void parsesBothSeparatorsAndCases() {
        assertThat(MacAddress.parse("02:00:00:00:00:0a")).isEqualTo(0x0200_0000_000AL);
        assertThat(MacAddress.parse(" AA-BB-CC-DD-EE-FF ")).isEqualTo(0xAABB_CCDD_EEFFL);
    }

    @Test
    void refusesWhatIsNotAMac() {
        for (final String text : new String[] {null, "", "02:00:00:00:00", "02:00:00:00:00:0a:01", "02:00-00:00:00:0a",
            "+2:00:00:00:00:0a", "0g:00:00:00:00:0a", "02.00.00.00.00.0a", "002:00:00:00:00:0", "\uFF10\uFF12:00:00:00:00:0a"}) {
            assertThat(MacAddress.parse(text)).as(String.valueOf(text)).isEqualTo(MacAddress.NONE);
        }
    }

    /** Against a naive formatter (one {@code %02x} per octet), on seeded random addresses (seed printed to replay). */
    @Test
    void roundTripsAgainstTheJdksHexFormat() {
        final long seed = Long.getLong("mrct.seed", System.nanoTime());
        System.out.println("MacAddressTest: seed " + seed + " (replay with -Dmrct.seed=" + seed + ")");
        final Random random = new Random(seed);
        for (int i = 0; i < 1000; i++) {
            final long mac = random.nextLong() & 0xFFFF_FFFF_FFFFL;
            final StringJoiner naive = new StringJoiner(":");
            for (int shift = 40; shift >= 0; shift -= 8) {
                naive.add(String.format(Locale.ROOT, "%02x", mac >>> shift & 0xFF));
            }
            final String expected = naive.toString();
            assertThat(MacAddress.format(mac)).isEqualTo(expected);
            assertThat(MacAddress.parse(expected.toUpperCase(Locale.ROOT))).isEqualTo(mac);
        }
    }
}
