package org.metaroce.mrct.harness.engine;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.metaroce.mrct.wire.Opcode;

/** The PSN span of READ REQUESTs the harness sends, first transmissions and re-requests (sections 8.1 and 13.6). */
class TrafficTest {
    @Test
    void aReadOccupiesOnePsnPerResponse() {
        assertThat(Traffic.readSpan(0, 0, 1024)).isEqualTo(1);
        assertThat(Traffic.readSpan(1, 0, 1024)).isEqualTo(1);
        assertThat(Traffic.readSpan(1024, 0, 1024)).isEqualTo(1);
        assertThat(Traffic.readSpan(1025, 0, 1024)).isEqualTo(2);
        assertThat(Traffic.readSpan(4000, 0, 256)).isEqualTo(16);
    }

    @Test
    void aReRequestOccupiesThePsnsFromItsOffsetToTheEndOfTheRead() {
        assertThat(Traffic.readSpan(4000, 2048, 1024)).isEqualTo(2);
        assertThat(Traffic.readSpan(4000, 3072, 1024)).isEqualTo(1);
        assertThat(Traffic.readSpan(4096, 4096, 1024)).isEqualTo(1);
        assertThat(Traffic.readSpan(4096, 100, 1024)).isEqualTo(4);
    }

    @Test
    void aCnpIsTver0WhateverTheConnectionAndOtherFramesFollowIt() {
        assertThat(Traffic.defaultTver(Opcode.CNP, 1)).isZero();
        assertThat(Traffic.defaultTver(Opcode.CNP, 0)).isZero();
        assertThat(Traffic.defaultTver(Opcode.ACKNOWLEDGE, 1)).isEqualTo(1);
        assertThat(Traffic.defaultTver(Opcode.RDMA_WRITE_ONLY, 0)).isZero();
    }
}
