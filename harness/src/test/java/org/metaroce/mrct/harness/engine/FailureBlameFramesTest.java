package org.metaroce.mrct.harness.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.metaroce.mrct.spi.Access;
import org.metaroce.mrct.spi.MemoryRegion;
import org.metaroce.mrct.wire.DecodedFrame;
import org.metaroce.mrct.wire.Encapsulation;
import org.metaroce.mrct.wire.FrameBuilder;
import org.metaroce.mrct.wire.FrameDecoder;
import org.metaroce.mrct.wire.Opcode;

/**
 * What blame reads off each frame the harness sent, on hand-built frames, each with a twin that keeps it quiet: PLETH
 * flags that contradict the opcode (a silent drop, Table 11-1 step 18, MR-ROB-007), a MIDDLE or LAST whose pleth.offset
 * fails V4 (MR-PLC-010), and a request that passes Table 10-1 on a region lacking a right it does not need (MR-SEC-004).
 */
class FailureBlameFramesTest {
    private static final int PMTU = 1024;
    private static final int PD = 1;

    private static Connection connection() {
        return new Connection("q", PD, 0x100, 0x123, 0, 0, Encapsulation.ipv4("198.51.100.1", "198.51.100.2"), 1,
            0xFFFF, PMTU, 128);
    }

    private static DecodedFrame frame(final Opcode opcode, final Map<String, Long> fields) {
        FrameBuilder builder = FrameBuilder.of(Encapsulation.ipv4("198.51.100.1", "198.51.100.2"), opcode)
            .with("bth.pkey", 0xFFFF).with("bth.dqpn", 0x100);
        for (final Map.Entry<String, Long> field : fields.entrySet()) {
            builder = builder.with(field.getKey(), field.getValue());
        }
        final byte[] bytes = builder.build();
        return new FrameDecoder().decode(ByteBuffer.wrap(bytes), 0, bytes.length).copy();
    }

    @Test
    void plethFlagsContradictingTheOpcodeAreASilentDropOfMrRob007AndTableFlagsAreNot() {
        assertThat(FailureBlame.dropRule(frame(Opcode.SEND_ONLY, Map.of("pleth.first", 0L, "pleth.last", 1L)),
            connection())).isEqualTo("MR-ROB-007");
        assertThat(FailureBlame.dropRule(frame(Opcode.RDMA_READ_REQUEST, Map.of("pleth.first", 1L, "pleth.last", 0L)),
            connection())).isEqualTo("MR-ROB-007");
        assertThat(FailureBlame.dropRule(frame(Opcode.SEND_MIDDLE, Map.of("pleth.first", 0L, "pleth.last", 0L)),
            connection())).isNull();
        assertThat(FailureBlame.dropRule(frame(Opcode.FETCH_ADD, Map.of("pleth.first", 1L, "pleth.last", 1L)),
            connection())).isNull();
    }

    @Test
    void aMiddleOrLastWhoseOffsetFailsV4NamesMrPlc010AndOneAtAMultipleOfPmtuDoesNot() {
        assertThat(FailureBlame.arrivalRule(frame(Opcode.RDMA_WRITE_MIDDLE, Map.of("pleth.offset", 0L)),
            connection())).isEqualTo("MR-PLC-010");
        assertThat(FailureBlame.arrivalRule(frame(Opcode.SEND_LAST, Map.of("pleth.offset", PMTU + 8L)),
            connection())).isEqualTo("MR-PLC-010");
        assertThat(FailureBlame.arrivalRule(frame(Opcode.RDMA_WRITE_MIDDLE, Map.of("pleth.offset", (long) PMTU)),
            connection())).isNull();
        assertThat(FailureBlame.arrivalRule(frame(Opcode.RDMA_WRITE_FIRST, Map.of("pleth.offset", 0L)),
            connection())).isNull();
    }

    @Test
    void aValidAtomicOnARegionLackingTheReadRightNamesMrSec004AndOnAFullRegionOrAnInvalidOneNothing() {
        final DecodedFrame atomic = frame(Opcode.FETCH_ADD, Map.of("atomiceth.va", 0x1000L, "atomiceth.rkey", 7L));
        final MemoryRegion noRead = new MemoryRegion(PD, 0x1000, 64, 6, 7, Set.of(Access.REMOTE_ATOMIC,
            Access.REMOTE_WRITE));
        final MemoryRegion every = new MemoryRegion(PD, 0x1000, 64, 6, 7, Set.of(Access.REMOTE_ATOMIC,
            Access.REMOTE_WRITE, Access.REMOTE_READ));
        final MemoryRegion noAtomic = new MemoryRegion(PD, 0x1000, 64, 6, 7, Set.of(Access.REMOTE_READ));
        final MemoryRegion otherPd = new MemoryRegion(PD + 1, 0x1000, 64, 6, 7, Set.of(Access.REMOTE_ATOMIC));
        assertThat(FailureBlame.wrongRightRule(atomic, connection(), List.of(noRead))).isEqualTo("MR-SEC-004");
        assertThat(FailureBlame.wrongRightRule(atomic, connection(), List.of(every))).isNull();
        assertThat(FailureBlame.wrongRightRule(atomic, connection(), List.of(noAtomic))).isNull();
        assertThat(FailureBlame.wrongRightRule(atomic, connection(), List.of(otherPd))).isNull();
        assertThat(FailureBlame.wrongRightRule(atomic, connection(), List.of())).isNull();
    }
}
