package org.metaroce.mrct.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.metaroce.mrct.testing.ExternalTool;
import org.metaroce.mrct.testing.Fixtures;
import org.metaroce.mrct.testing.RandomFrames;
import org.metaroce.mrct.testing.Seeds;
import org.metaroce.mrct.wire.capture.CaptureReader;
import org.metaroce.mrct.wire.capture.PcapWriter;
import org.opentest4j.TestAbortedException;

/**
 * Every field of every frame, decoded by us (through {@link CaptureReader}) and by tshark, must agree: the set of RoCE
 * frames, the IP, UDP and VLAN fields of those frames, the BTH, every extension header tshark 4.0 knows, and the ICRC
 * value as carried. Sources: the soft-RoCE fixtures, the captures in {@code ../shared/captures} (skipped when absent)
 * and a capture of seeded random frames of every opcode over IPv4, IPv6, RoCEv1 and VLANs. tshark 4.0 does not verify
 * ICRCs and shows the CNP as an unknown opcode, so the ICRC check (every RoCE frame verifies) is ours alone; tshark
 * knows no MetaRoCE header, so on TVer 1 frames only the BTH and below are compared ({@link Scope}). A mismatch names
 * the file, the frame number, the tshark field and both values. Skipped, with the reason, when tshark is absent.
 *
 * <p>tshark 4.0 prints {@code -T fields} values as follows, which {@link Kind} undoes: integers in decimal or, for
 * BASE_HEX fields, {@code 0x} and zero-padded hex; booleans as {@code 1}/{@code 0} (older versions print
 * {@code True}/{@code False}); byte fields ({@code infiniband.immdt}, {@code infiniband.ieth}) as bare hex digits;
 * the AtomicETH virtual address and R_Key under the RETH names {@code infiniband.reth.va}/{@code .r_key}; and the ICRC
 * ({@code infiniband.invariant.crc}) as the four bytes in wire order read as one big-endian number.
 */
class TsharkFieldCrossCheckTest {
    private static final int TSHARK_TIMEOUT_SECONDS = 300;
    private static final int CRAFTED_FRAMES = 2000;
    /** tshark's field for the bytes after the BTH of an opcode it does not know. */
    private static final String UNKNOWN_OPCODE_DATA = "infiniband.vendor";

    /** How tshark prints a field. */
    private enum Kind {
        /** Decimal, {@code 0x} hex, or a boolean. */
        NUMBER,
        /** Bare hex digits of a byte field. */
        BYTES,
        /** An IPv4 or IPv6 address. */
        ADDRESS
    }

    /** When a field is compared. */
    private enum Scope {
        /** On every RoCE frame; a value on one side only is a mismatch. */
        ALWAYS,
        /**
         * Extension headers: on frames with TVer 0 (tshark knows only the RoCEv2 layouts) whose opcode tshark knows
         * (it shows the rest of an unknown one as vendor data); a value on one side only is a mismatch.
         */
        LAYOUT,
        /**
         * The ICRC: whenever tshark shows it. tshark leaves it out when its dissection of the payload stops early
         * (UD payloads read as MADs, payload heuristics that throw, opcodes it does not know).
         */
        TRAILER
    }

    /** One frame as tshark shows it: the {@link #CHECKS} fields, and whether it knew the opcode. */
    private record TsharkFrame(String[] fields, boolean opcodeKnown) {
        boolean roce() {
            return !fields[0].isEmpty();
        }
    }

    /** One field both decoders know: tshark's name, how it prints, when it is compared, and our value (or null). */
    private record Check(String tsharkField, Kind kind, Scope scope, Function<DecodedFrame, Object> ours) {
    }

    /** The fields compared on every RoCE frame, in tshark's column order after {@code frame.number}. */
    private static final List<Check> CHECKS = List.of(
        number("infiniband.bth.opcode", f -> f.bth().opcodeValue()),
        number("infiniband.bth.se", f -> f.bth().solicitedEvent() ? 1 : 0),
        number("infiniband.bth.m", f -> f.bth().migReq() ? 1 : 0),
        number("infiniband.bth.padcnt", f -> f.bth().padCount()),
        number("infiniband.bth.tver", f -> f.bth().tver()),
        number("infiniband.bth.p_key", f -> f.bth().pkey()),
        number("infiniband.bth.destqp", f -> f.bth().destQp()),
        number("infiniband.bth.a", f -> f.bth().ackReq() ? 1 : 0),
        number("infiniband.bth.psn", f -> f.bth().psn()),
        extension("infiniband.reth.va", f -> f.has(HeaderKind.RETH) ? (Object) f.reth().va()
            : f.has(HeaderKind.ATOMIC_ETH) ? (Object) f.atomicEth().va() : null),
        extension("infiniband.reth.r_key", f -> f.has(HeaderKind.RETH) ? (Object) unsigned(f.reth().rkey())
            : f.has(HeaderKind.ATOMIC_ETH) ? (Object) unsigned(f.atomicEth().rkey()) : null),
        extension("infiniband.reth.dmalen", f -> f.has(HeaderKind.RETH) ? f.reth().dmaLength() : null),
        extension("infiniband.aeth.syndrome", f -> f.has(HeaderKind.AETH) ? f.aeth().syndromeValue() : null),
        extension("infiniband.aeth.msn", f -> f.has(HeaderKind.AETH) ? f.aeth().msn() : null),
        extension("infiniband.atomiceth.swapdt", f -> f.has(HeaderKind.ATOMIC_ETH) ? f.atomicEth().swapAdd() : null),
        extension("infiniband.atomiceth.cmpdt", f -> f.has(HeaderKind.ATOMIC_ETH) ? f.atomicEth().compare() : null),
        extension("infiniband.atomicacketh.origremdt",
            f -> f.has(HeaderKind.ATOMIC_ACK_ETH) ? f.atomicAckEth().original() : null),
        extension("infiniband.deth.q_key", f -> f.has(HeaderKind.DETH) ? unsigned(f.deth().qkey()) : null),
        extension("infiniband.deth.srcqp", f -> f.has(HeaderKind.DETH) ? f.deth().srcQp() : null),
        new Check("infiniband.immdt", Kind.BYTES, Scope.LAYOUT,
            f -> f.has(HeaderKind.IMMDT) ? unsigned(f.immDt().immediate()) : null),
        new Check("infiniband.ieth", Kind.BYTES, Scope.LAYOUT,
            f -> f.has(HeaderKind.IETH) ? unsigned(f.ieth().rkey()) : null),
        new Check("infiniband.invariant.crc", Kind.NUMBER, Scope.TRAILER,
            f -> unsigned(Integer.reverseBytes(f.icrcOnWire()))),
        address("ip.src", f -> f.has(HeaderKind.IPV4) ? f.ipSource() : null),
        address("ip.dst", f -> f.has(HeaderKind.IPV4) ? f.ipDestination() : null),
        number("ip.dsfield.dscp", f -> f.has(HeaderKind.IPV4) ? f.dscp() : null),
        number("ip.dsfield.ecn", f -> f.has(HeaderKind.IPV4) ? f.ecn() : null),
        address("ipv6.src", f -> v2Ipv6(f) ? f.ipSource() : null),
        address("ipv6.dst", f -> v2Ipv6(f) ? f.ipDestination() : null),
        number("ipv6.tclass.dscp", f -> v2Ipv6(f) ? f.dscp() : null),
        number("ipv6.tclass.ecn", f -> v2Ipv6(f) ? f.ecn() : null),
        number("udp.srcport", f -> f.has(HeaderKind.UDP) ? f.udp().sourcePort() : null),
        number("udp.dstport", f -> f.has(HeaderKind.UDP) ? f.udp().destinationPort() : null),
        number("vlan.id", f -> f.has(HeaderKind.VLAN) ? f.eth().vlanId() : null));

    static Stream<Arguments> softRoceCaptures() {
        return named(Fixtures.softRoceCaptures());
    }

    /**
     * The captures in {@code ../shared/captures}; when that folder is absent, one placeholder whose test is skipped
     * with the reason (an assumption failing in the source itself would hide the test from the reports).
     */
    static Stream<Arguments> sharedCaptures() {
        try {
            return named(Fixtures.sharedCaptures());
        } catch (TestAbortedException absent) {
            return Stream.of(Arguments.of(Named.of("../shared/captures is absent", null)));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("softRoceCaptures")
    void softRoceCaptureAgreesWithTshark(final Path capture) throws IOException {
        crossCheck(capture, true);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("sharedCaptures")
    void sharedCaptureAgreesWithTshark(final Path capture) throws IOException {
        Assumptions.assumeTrue(capture != null, () -> "skipped: " + Fixtures.root().resolveSibling("shared")
            .resolve("captures") + " is absent (it exists only beside a development checkout)");
        crossCheck(capture, false);
    }

    @Test
    void randomCraftedFramesAgreeWithTshark(@TempDir final Path dir) throws IOException {
        ExternalTool.assumeWorks("the field cross-check needs tshark", "tshark", "-v");
        final RandomFrames frames = new RandomFrames(Seeds.random("TsharkFieldCrossCheckTest.crafted", 0x7541L));
        final Path capture = dir.resolve("crafted.pcap");
        try (PcapWriter writer = PcapWriter.create(capture, PcapWriter.Options.defaults())) {
            for (int i = 0; i < CRAFTED_FRAMES; i++) {
                writer.write(1_700_000_000_000_000_000L + i * 1000L, frames.frame().build());
            }
        }
        crossCheck(capture, false);
    }

    /**
     * Compares our decoding of {@code capture} with tshark's, frame by frame.
     *
     * @param everyIcrcShown true when tshark must show the ICRC of every RoCE frame (known captures without UD, CNP or
     *                       payloads that trip tshark's heuristics), so that the ICRC comparison cannot pass vacuously
     */
    private static void crossCheck(final Path capture, final boolean everyIcrcShown) throws IOException {
        ExternalTool.assumeWorks("the field cross-check needs tshark", "tshark", "-v");
        final Map<Long, TsharkFrame> theirs = tshark(capture);
        final List<String> mismatches = new ArrayList<>();
        final Map<String, Integer> compared = new HashMap<>();
        final TreeSet<Long> ourRoce = new TreeSet<>();
        final TreeSet<Long> theirRoce = new TreeSet<>();
        theirs.forEach((number, frame) -> {
            if (frame.roce()) {
                theirRoce.add(number);
            }
        });
        final FrameDecoder decoder = new FrameDecoder();
        long records = 0;
        try (CaptureReader reader = CaptureReader.open(capture)) {
            while (reader.next()) {
                records++;
                final long number = reader.recordNumber();
                final DecodedFrame frame = decoder.decode(reader.buffer(), reader.offset(), reader.capturedLength());
                if (frame.status() == DecodeStatus.NOT_ROCE) {
                    continue;
                }
                ourRoce.add(number);
                if (!frame.isRoce()) {
                    mismatches.add("frame " + number + ": we could not decode it: " + frame.failure());
                    continue;
                }
                if (!frame.icrcValid()) {
                    mismatches.add(String.format(Locale.ROOT, "frame %d: ICRC %s on the wire, %s computed", number,
                        FrameDescription.wireHex(frame.icrcOnWire()), FrameDescription.wireHex(frame.computeIcrc())));
                }
                final TsharkFrame their = theirs.get(number);
                if (their != null && their.roce()) {
                    compare(number, frame, their.fields(), their.opcodeKnown(), mismatches, compared);
                }
            }
        }
        assertThat(records).as("records read by us and by tshark").isEqualTo(theirs.size());
        assertThat(ourRoce).as("RoCE frames: ours vs tshark's").isEqualTo(theirRoce);
        assertThat(ourRoce).as("a capture without RoCE frames checks nothing").isNotEmpty();
        assertThat(mismatches).as("%s: fields where we and tshark disagree (compared: %s)", capture.getFileName(),
            new TreeMap<>(compared)).isEmpty();
        assertThat(compared.getOrDefault("infiniband.bth.psn", 0)).as("frames whose PSN was compared")
            .isEqualTo(ourRoce.size());
        if (everyIcrcShown) {
            assertThat(compared.getOrDefault("infiniband.invariant.crc", 0)).as("frames whose ICRC was compared")
                .isEqualTo(ourRoce.size());
        }
    }

    private static void compare(final long number, final DecodedFrame frame, final String[] fields,
                                final boolean opcodeKnownToTshark, final List<String> mismatches,
                                final Map<String, Integer> compared) {
        final boolean layoutComparable = opcodeKnownToTshark && frame.tver() == HeaderLayout.TVER_ROCEV2;
        for (int i = 0; i < CHECKS.size(); i++) {
            final Check check = CHECKS.get(i);
            if (check.scope() == Scope.LAYOUT && !layoutComparable) {
                continue;
            }
            final String their = fields[i];
            final Object our = check.ours().apply(frame);
            if (their.isEmpty() && (our == null || check.scope() == Scope.TRAILER)) {
                continue;
            }
            if (their.isEmpty() || our == null) {
                mismatches.add(String.format(Locale.ROOT, "frame %d: %s: tshark %s, ours %s", number,
                    check.tsharkField(), their.isEmpty() ? "(absent)" : their, our == null ? "(absent)" : show(our)));
                continue;
            }
            compared.merge(check.tsharkField(), 1, Integer::sum);
            if (!same(check.kind(), their, our)) {
                mismatches.add(String.format(Locale.ROOT, "frame %d: %s: tshark %s, ours %s", number,
                    check.tsharkField(), their, show(our)));
            }
        }
    }

    private static boolean same(final Kind kind, final String their, final Object our) {
        switch (kind) {
            case ADDRESS:
                try {
                    return InetAddress.getByName(their).equals(InetAddress.getByAddress((byte[]) our));
                } catch (UnknownHostException e) {
                    return false;
                }
            case BYTES:
                return their.length() <= 16 && their.matches("[0-9a-fA-F]+")
                    && Long.parseUnsignedLong(their, 16) == ((Number) our).longValue();
            default:
                final Long value = parseNumber(their);
                return value != null && value == ((Number) our).longValue();
        }
    }

    /** tshark's text of an integer or boolean field as a number, or null when it is neither. */
    static Long parseNumber(final String text) {
        if ("True".equals(text)) {
            return 1L;
        }
        if ("False".equals(text)) {
            return 0L;
        }
        try {
            if (text.startsWith("0x") || text.startsWith("0X")) {
                return Long.parseUnsignedLong(text.substring(2), 16);
            }
            return Long.parseUnsignedLong(text);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static String show(final Object our) {
        if (our instanceof byte[]) {
            return DecodedFrame.formatAddress((byte[]) our);
        }
        final long value = ((Number) our).longValue();
        return Long.toUnsignedString(value) + " (0x" + Long.toHexString(value) + ")";
    }

    /** frame number to tshark's view of it, for every frame of the file. */
    private static Map<Long, TsharkFrame> tshark(final Path capture) {
        final List<String> command = new ArrayList<>(List.of("tshark", "-n", "-r", capture.toString(), "-T", "fields",
            "-E", "separator=/t", "-E", "occurrence=f", "-e", "frame.number", "-e", UNKNOWN_OPCODE_DATA));
        for (final Check check : CHECKS) {
            command.add("-e");
            command.add(check.tsharkField());
        }
        final ExternalTool.Result result = ExternalTool.run(TSHARK_TIMEOUT_SECONDS, command);
        assertThat(result.exitCode()).as("tshark on %s: %s", capture, result.stderr()).isZero();
        final Map<Long, TsharkFrame> frames = new HashMap<>();
        for (final String line : result.stdout().split("\n")) {
            if (line.isEmpty()) {
                continue;
            }
            final String[] columns = line.split("\t", -1);
            assertThat(columns).as("tshark line %s", line).hasSize(CHECKS.size() + 2);
            final String[] fields = new String[CHECKS.size()];
            System.arraycopy(columns, 2, fields, 0, fields.length);
            frames.put(Long.parseLong(columns[0]), new TsharkFrame(fields, columns[1].isEmpty()));
        }
        return frames;
    }

    private static Check number(final String field, final Function<DecodedFrame, Object> ours) {
        return new Check(field, Kind.NUMBER, Scope.ALWAYS, ours);
    }

    private static Check extension(final String field, final Function<DecodedFrame, Object> ours) {
        return new Check(field, Kind.NUMBER, Scope.LAYOUT, ours);
    }

    private static Check address(final String field, final Function<DecodedFrame, Object> ours) {
        return new Check(field, Kind.ADDRESS, Scope.ALWAYS, ours);
    }

    private static boolean v2Ipv6(final DecodedFrame frame) {
        return frame.version() == RoceVersion.V2 && frame.has(HeaderKind.IPV6);
    }

    private static long unsigned(final int value) {
        return Integer.toUnsignedLong(value);
    }

    private static Stream<Arguments> named(final List<Path> captures) {
        return captures.stream().map(p -> Arguments.of(Named.of(p.getFileName().toString(), p)));
    }
}
