package org.metaroce.mrct.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.metaroce.mrct.testing.Seeds;

class PsnTest {
    @Test
    void comparesAcrossTheWrap() {
        assertThat(Psn.isAfter(0, 0xFFFFFF)).isTrue();
        assertThat(Psn.isBefore(0xFFFFFF, 0)).isTrue();
        assertThat(Psn.diff(2, 0xFFFFFE)).isEqualTo(4);
        assertThat(Psn.add(0xFFFFFF, 1)).isZero();
        assertThat(Psn.add(0, -1)).isEqualTo(0xFFFFFF);
        assertThat(Psn.distance(0xFFFFF0, 0x10)).isEqualTo(0x20);
    }

    @Test
    void halfWindowIsTheBoundary() {
        assertThat(Psn.isAfter(Psn.HALF - 1, 0)).isTrue();
        assertThat(Psn.isAfter(Psn.HALF, 0)).isFalse();
        assertThat(Psn.isBefore(Psn.HALF, 0)).isTrue();
    }

    @Test
    void windowMembershipWraps() {
        assertThat(Psn.inWindow(0x000003, 0xFFFFFE, 8)).isTrue();
        assertThat(Psn.inWindow(0x000006, 0xFFFFFE, 8)).isFalse();
        assertThat(Psn.inWindow(0xFFFFFD, 0xFFFFFE, 8)).isFalse();
    }

    @Test
    void diffIsAntisymmetricAndAddInvertsIt() {
        final SplittableRandom random = Seeds.random("PsnTest.diff", 24L);
        for (int i = 0; i < 100_000; i++) {
            final int a = random.nextInt(Psn.MODULUS);
            final int delta = random.nextInt(-Psn.HALF + 1, Psn.HALF);
            final int b = Psn.add(a, delta);
            assertThat(Psn.diff(b, a)).isEqualTo(delta);
            assertThat(Psn.diff(a, b)).isEqualTo(-delta);
            assertThat(Psn.compare(b, a)).isEqualTo(Integer.signum(delta));
        }
    }
}
