package org.metaroce.mrct.harness.engine;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.metaroce.mrct.spi.QpAttribute;
import org.metaroce.mrct.spi.QpAttributes;
import org.metaroce.mrct.spi.QpState;
import org.metaroce.mrct.wire.Encapsulation;

/** A connection's state changes only through what happened to it: modifications, RESETs, packets. */
class ConnectionStateTest {
    private static Connection connection() {
        final Connection c = new Connection("q", 1, 0x11, 0x22, 1000, 2000,
            Encapsulation.ipv4("198.51.100.1", "198.51.100.2"), 1, 0xFFFF, 1024, 128);
        c.createdWith(QpAttributes.empty().with(QpAttribute.PMTU, 1024).with(QpAttribute.UDP_SPORT, 0xC123));
        return c;
    }

    @Test
    void newPsnsMoveThePsnSpacesOnlyBetweenAResetAndRts() {
        final Connection c = connection();
        final QpAttributes psns = QpAttributes.empty().with(QpAttribute.RQ_PSN, 7).with(QpAttribute.SQ_PSN, 9);
        assertThat(c.modified(QpState.RTS, psns)).as("a running QP's spaces stay").isFalse();
        assertThat(c.psnBase()).isEqualTo(1000);
        assertThat(c.devicePsnBase()).isEqualTo(2000);

        assertThat(c.modified(QpState.RESET, QpAttributes.empty())).isFalse();
        assertThat(c.baseAttributesFor(QpState.INIT)).as("the first modification after a RESET")
            .isEqualTo(c.created());
        assertThat(c.baseAttributesFor(QpState.RESET)).isEqualTo(QpAttributes.empty());
        assertThat(c.modified(QpState.INIT, QpAttributes.empty().with(QpAttribute.RQ_PSN, 0x1000005))).isTrue();
        assertThat(c.psnBase()).as("masked to 24 bits").isEqualTo(5);
        assertThat(c.baseAttributesFor(QpState.RTR)).as("given once").isEqualTo(QpAttributes.empty());
        assertThat(c.modified(QpState.RTS, psns)).isTrue();
        assertThat(c.psnBase()).isEqualTo(7);
        assertThat(c.devicePsnBase()).isEqualTo(9);
        assertThat(c.absolute(3)).isEqualTo(10);
        assertThat(c.modified(QpState.RTS, QpAttributes.empty().with(QpAttribute.RQ_PSN, 1))).as("back in RTS")
            .isFalse();
        assertThat(c.psnBase()).isEqualTo(7);
    }

    @Test
    void aResetStartsTheHarnesssEndAfresh() {
        final Connection c = connection();
        c.numbering().takeMsn();
        c.numbering().takeRsn();
        assertThat(c.numbering().takePsns(3)).isZero();
        c.posted(new Connection.Receive(c.takeReceiveWrId(), 0x1000, 64, null));
        final ResponderModel before = c.model();
        c.modified(QpState.RESET, QpAttributes.empty());
        assertThat(c.numbering().nextPsn()).isZero();
        assertThat(c.numbering().msn(true)).isZero();
        assertThat(c.numbering().rsn(true)).isZero();
        assertThat(c.receives()).isEmpty();
        assertThat(c.model()).isNotSameAs(before);
        assertThat(c.takeReceiveWrId()).as("work request IDs keep counting").isEqualTo(2);
    }

    @Test
    void rawPacketsMoveTheNumbersPastWhatWasSent() {
        final HarnessNumbering n = new HarnessNumbering();
        n.packetBuilt(true, false, true, true, 0, 0, 1024, 0, 1); // SEND FIRST
        assertThat(n.msn(false)).isZero();
        assertThat(n.msn(true)).as("the message is not over").isZero();
        assertThat(n.messageOffset(false)).isEqualTo(1024);
        assertThat(n.nextPsn()).isEqualTo(1);
        n.packetBuilt(false, true, true, true, 0, 0, 1500, 1, 1); // SEND LAST
        assertThat(n.msn(true)).isEqualTo(1);
        assertThat(n.rsn(true)).isEqualTo(1);
        assertThat(n.messageOffset(true)).isZero();
        n.packetBuilt(true, true, true, false, 5, 0, 8, 10, 1); // an out-of-order PSN moves the next one past it
        assertThat(n.nextPsn()).isEqualTo(11);
        assertThat(n.msn(true)).isEqualTo(6);
        assertThat(n.rsn(true)).as("no receive WQE consumed").isEqualTo(1);
        n.packetBuilt(true, true, false, false, 0, 0, 0, 20, 1); // a response: the harness's requests stay
        assertThat(n.nextPsn()).isEqualTo(11);
        assertThat(n.takePsns(4)).isEqualTo(11);
        assertThat(n.nextPsn()).isEqualTo(15);
    }

    @Test
    void sourcePortAttributesFollowModificationsAndReachTheOracle() {
        final Connection c = connection();
        assertThat(c.ports().spray()).isFalse();
        assertThat(c.ports().fixed()).isEqualTo(0xC123);
        assertThat(c.facts().udpSport()).isEqualTo(0xC123);
        c.modified(QpState.RTS, QpAttributes.empty().with(QpAttribute.SPRAY, true));
        assertThat(c.ports().spray()).isTrue();
        assertThat(c.facts().spray()).isTrue();
        assertThat(c.ports().fixed()).as("absent attributes stay").isEqualTo(0xC123);
    }
}
