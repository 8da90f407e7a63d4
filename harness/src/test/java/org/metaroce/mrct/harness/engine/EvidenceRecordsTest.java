package org.metaroce.mrct.harness.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.metaroce.mrct.harness.result.ControlCalls;
import org.metaroce.mrct.harness.result.Direction;
import org.metaroce.mrct.harness.result.FrameRecord;
import org.metaroce.mrct.harness.result.HexBytes;
import org.metaroce.mrct.wire.DecodedFrame;
import org.metaroce.mrct.wire.Encapsulation;
import org.metaroce.mrct.wire.FrameBuilder;
import org.metaroce.mrct.wire.FrameDecoder;
import org.metaroce.mrct.wire.FrameDescription;
import org.metaroce.mrct.wire.Opcode;

/**
 * The evidence's records, whose descriptions are made when read, are those of the frames when {@code records()} was
 * called: each frame described as {@code mrct decode} describes it (made here by the wire module directly), with the
 * step and note it had then, not later ones; and memory in control records reads as the hex it always was.
 */
class EvidenceRecordsTest {
    private static byte[] frame(final int psn) {
        return FrameBuilder.of(Encapsulation.ipv4("198.51.100.1", "198.51.100.2"), Opcode.SEND_ONLY)
            .with("bth.pkey", 0xFFFF).with("bth.dqpn", 0x100).with("bth.psn", psn).build();
    }

    private static Map<String, Object> described(final byte[] bytes) {
        final DecodedFrame decoded = new FrameDecoder().decode(ByteBuffer.wrap(bytes), 0, bytes.length);
        final Map<String, Object> out = new LinkedHashMap<>();
        out.put("roce", decoded.status() != org.metaroce.mrct.wire.DecodeStatus.NOT_ROCE);
        if (decoded.status() != org.metaroce.mrct.wire.DecodeStatus.NOT_ROCE) {
            FrameDescription.describeHeaders(decoded, out);
        }
        return out;
    }

    @Test
    void recordsDescribeTheFramesWithTheStepsAndNotesTheyHadWhenTaken() {
        final Evidence evidence = new Evidence(1_000);
        final byte[] first = frame(5);
        final byte[] second = frame(6);
        evidence.add(Direction.TO_DUT, 1_500, first, 0, "sent");
        final int later = evidence.add(Direction.FROM_DUT, 2_000, second, -1, "unexpected");
        final List<FrameRecord> records = evidence.records();
        evidence.note(later, 3, "matched"); // after the snapshot: not in it
        assertThat(records).hasSize(2);
        assertThat(records.get(1).note()).isEqualTo("unexpected");
        assertThat(records.get(1).step()).isEqualTo(-1);
        assertThat(records.get(1).timestampNanos()).isEqualTo(1_000);
        assertThat(records.get(0).decoded()).isEqualTo(described(first)).isInstanceOf(LinkedHashMap.class);
        assertThat(List.copyOf(records.get(0).decoded().keySet())).as("the headers in the order described")
            .containsExactlyElementsOf(described(first).keySet());
        assertThat(records.get(0).decoded().toString()).isEqualTo(described(first).toString());
        assertThat(records.get(1).decoded()).isEqualTo(described(second)).isNotEqualTo(described(first));
        assertThat(evidence.records().get(1).note()).isEqualTo("matched");
        assertThat(records.get(0)).isSameAs(records.get(0)); // made once
    }

    @Test
    void framesThatAreNotRoceOrTruncatedAreDescribedAsAtOnce() {
        final Evidence evidence = new Evidence(0);
        final byte[] arp = new byte[60];
        arp[12] = 0x08;
        arp[13] = 0x06;
        evidence.add(Direction.FROM_DUT, 0, arp, -1, "unexpected");
        evidence.add(Direction.FROM_DUT, 0, new byte[] {1, 2, 3}, -1, "unexpected");
        assertThat(evidence.records().get(0).decoded()).isEqualTo(Map.of("roce", false)).isEqualTo(described(arp));
        assertThat(evidence.records().get(1).decoded()).isEqualTo(described(new byte[] {1, 2, 3}))
            .containsKey("error");
    }

    @Test
    void recordedMemoryReadsAsTheHexOfThePlainForm() {
        final byte[] data = {0x00, 0x7F, (byte) 0x80, (byte) 0xFF, 0x0A};
        final Object recorded = ControlCalls.writeMemoryRecorded(0x1000, data).get("data");
        assertThat(recorded).hasToString(ControlCalls.writeMemory(0x1000, data).get("data").toString())
            .hasToString("007f80ff0a");
        data[0] = 1; // the record keeps a copy
        assertThat(recorded).hasToString("007f80ff0a").isEqualTo(new HexBytes(new byte[] {0, 0x7F, (byte) 0x80,
            (byte) 0xFF, 0x0A})).isNotEqualTo(new HexBytes(data));
    }
}
