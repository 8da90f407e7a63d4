package org.metaroce.mrct.oracle;

import static org.assertj.core.api.Assertions.assertThat;
import static org.metaroce.mrct.oracle.Frames.V4;
import static org.metaroce.mrct.oracle.Frames.ack;
import static org.metaroce.mrct.oracle.Frames.decode;
import static org.metaroce.mrct.oracle.Frames.of;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.metaroce.mrct.wire.DecodedFrame;
import org.metaroce.mrct.wire.Opcode;

/** The stream rules: the cumulative acknowledgement (MR-ACK-010) and the source ports (MR-MP-001/002/004). */
class QpStreamTest {
    private static final QpFacts SPRAY_OFF = new QpFacts(1, null, null, false, null, 1000);
    private static final QpFacts SPRAY_ON = new QpFacts(1, null, null, true, null, null);

    private static DecodedFrame ackOf(final int base) {
        return decode(ack().psn(base - 1).with("sacketh.base", base));
    }

    private static DecodedFrame request(final int port) {
        return decode(of(Opcode.RDMA_WRITE_ONLY).payload(new byte[8]).encapsulation(V4.withUdpSourcePort(port)));
    }

    private static DecodedFrame response(final int port) {
        return decode(of(Opcode.RDMA_READ_RESPONSE_MIDDLE).payload(new byte[8])
            .encapsulation(V4.withUdpSourcePort(port)));
    }

    @Test
    void theCumulativeAcknowledgementMayStayOrAdvance() {
        final QpStream stream = new QpStream();
        for (final int base : new int[] {1000, 1000, 1003, 1010}) {
            assertThat(stream.onSent(ackOf(base), 1, SPRAY_OFF)).isEmpty();
        }
    }

    @Test
    void theCumulativeAcknowledgementMovingBackBreaksAck010() {
        final QpStream stream = new QpStream();
        assertThat(stream.onSent(ackOf(1005), 1, SPRAY_OFF)).isEmpty();
        final List<Finding> findings = stream.onSent(ackOf(1003), 2, SPRAY_OFF);
        assertThat(findings).singleElement().satisfies(f -> {
            assertThat(f.rule()).isEqualTo("MR-ACK-010");
            assertThat(f.field()).isEqualTo("sacketh.base");
            assertThat(f.expected()).startsWith("at least 5 ");
            assertThat(f.actual()).startsWith("3 ");
            assertThat(f.frame()).isEqualTo(2);
        });
    }

    @Test
    void aResetStartsTheAcknowledgementsAfresh() {
        final QpStream stream = new QpStream();
        assertThat(stream.onSent(ackOf(1005), 1, SPRAY_OFF)).isEmpty();
        stream.restart();
        assertThat(stream.onSent(ackOf(1000), 2, SPRAY_OFF)).isEmpty();
    }

    @Test
    void withoutSprayOnePortIsKept() {
        final QpStream stream = new QpStream();
        assertThat(stream.onSent(request(0xC001), 1, SPRAY_OFF)).isEmpty();
        assertThat(stream.onSent(response(0xC001), 2, SPRAY_OFF)).isEmpty();
        assertThat(stream.onSent(request(0xC002), 3, SPRAY_OFF)).singleElement()
            .satisfies(f -> assertThat(f.rule()).isEqualTo("MR-MP-001"));
        stream.forgetSourcePorts();
        assertThat(stream.onSent(request(0xC002), 4, SPRAY_OFF)).as("after a modification").isEmpty();
    }

    @Test
    void withoutSprayTheUdpSportAttributeIsThePort() {
        final QpFacts attribute = new QpFacts(1, null, null, false, 0xD00D, null);
        final QpStream stream = new QpStream();
        assertThat(stream.onSent(request(0xD00D), 1, attribute)).isEmpty();
        final QpStream other = new QpStream();
        assertThat(other.onSent(request(0xD00E), 1, attribute)).singleElement().satisfies(f -> {
            assertThat(f.rule()).isEqualTo("MR-MP-001");
            assertThat(f.expected()).contains("udp_sport attribute");
        });
    }

    @Test
    void withSprayAnySixteenRequestsUseTwoPorts() {
        final QpStream stream = new QpStream();
        for (int i = 0; i < 40; i++) {
            assertThat(stream.onSent(request(0xC000 + (i % 7 == 0 ? 1 : 0)), i, SPRAY_ON)).as("packet %d", i)
                .isEmpty();
        }
        final QpStream run = new QpStream();
        for (int i = 0; i < 15; i++) {
            assertThat(run.onSent(request(0xC100), i, SPRAY_ON)).isEmpty();
        }
        assertThat(run.onSent(request(0xC100), 15, SPRAY_ON)).singleElement()
            .satisfies(f -> assertThat(f.rule()).isEqualTo("MR-MP-002"));
    }

    @Test
    void withSprayAnySixteenReadResponsesUseTwoPorts() {
        final QpStream stream = new QpStream();
        List<Finding> last = List.of();
        for (int i = 0; i < 16; i++) {
            last = stream.onSent(response(0xC200), i, SPRAY_ON);
        }
        assertThat(last).singleElement().satisfies(f -> assertThat(f.rule()).isEqualTo("MR-MP-004"));
    }

    @Test
    void withoutTheSprayAttributeThePortsAreNotJudged() {
        final QpStream stream = new QpStream();
        for (int i = 0; i < 20; i++) {
            assertThat(stream.onSent(request(0xC000 + i), i, QpFacts.UNKNOWN)).isEmpty();
        }
    }
}
