package org.metaroce.mrct.harness.engine;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import org.metaroce.mrct.harness.cases.FrameTemplate;
import org.metaroce.mrct.harness.cases.Matcher;
import org.metaroce.mrct.harness.result.FieldDiff;
import org.metaroce.mrct.wire.DecodedFrame;
import org.metaroce.mrct.wire.FrameField;
import org.metaroce.mrct.wire.FrameFields;
import org.metaroce.mrct.wire.HeaderKind;
import org.metaroce.mrct.wire.OpKind;
import org.metaroce.mrct.wire.Opcode;
import org.metaroce.mrct.wire.Psn;

/**
 * Compares a frame from the device with an expected-frame template, field by field, in script space: PSNs relative to
 * the connection's initial PSN of the right direction, the destination QPN against the harness's end of the
 * connection. Every mismatch becomes a {@link FieldDiff} naming the field with both values in decimal and hex
 * (packetdrill's {@code check_field}, for RoCE).
 */
final class FrameCheck {
    private FrameCheck() {
    }

    /** Fields read in PSN script space. */
    static boolean isPsnField(final String name) {
        return name.equals("bth.psn") || name.equals("sacketh.base");
    }

    /**
     * The base of the PSN space of a frame from the device: its own requests count from its sq_psn, its responses
     * acknowledge the harness's requests, which count from the device's rq_psn. A CNP's PSN (0) is not translated.
     */
    static Integer psnBaseFromDevice(final Opcode opcode, final Connection connection) {
        if (connection == null || opcode == Opcode.CNP) {
            return null;
        }
        return opcode.kind().isRequest() ? connection.devicePsnBase() : connection.psnBase();
    }

    /** Mismatches between {@code frame} (from the device) and {@code template}; empty when it matches. */
    static List<FieldDiff> check(final DecodedFrame frame, final FrameTemplate template, final Connection connection,
                                 final Function<String, Long> names, final Function<String, byte[]> addresses) {
        final List<FieldDiff> diffs = new ArrayList<>();
        if (!frame.isRoce()) {
            diffs.add(new FieldDiff("frame", "a RoCE frame", frame.status() + (frame.failure() != null ? ": "
                + frame.failure() : "")));
            return diffs;
        }
        if (!template.opcodes().isEmpty()) {
            boolean found = false;
            for (final Opcode opcode : template.opcodes()) {
                if (opcode == frame.opcode()) {
                    found = true;
                    break;
                }
            }
            if (!found) {
                diffs.add(new FieldDiff("bth.opcode", template.opcodes().size() == 1 ? template.opcodes().get(0).name()
                    : "one of " + template.opcodes(), describeOpcode(frame.opcode())));
            }
        }
        if (template.icrcValid() != null && template.icrcValid() && !frame.icrcValid()) {
            diffs.add(new FieldDiff("icrc", "valid (" + hex(Integer.toUnsignedLong(frame.computeIcrc())) + ")",
                hex(Integer.toUnsignedLong(frame.icrcOnWire()))));
        }
        if (connection != null) {
            if (!template.fields().containsKey("bth.dqpn") && frame.bth().destQp() != connection.peerQpn) {
                diffs.add(new FieldDiff("bth.dqpn", connection.name + ".peer_qpn = "
                    + FrameFields.BTH_DQPN.describe(connection.peerQpn),
                    FrameFields.BTH_DQPN.describe(frame.bth().destQp())));
            }
            checkAddress(frame, "ip.src", addresses.apply(connection.name + ".device_ip"), diffs);
            checkAddress(frame, "ip.dst", addresses.apply(connection.name + ".harness_ip"), diffs);
        }
        final Integer base = psnBaseFromDevice(frame.opcode(), connection);
        for (final Map.Entry<String, Matcher> entry : template.fields().entrySet()) {
            final String name = entry.getKey();
            final FrameField field = frame.field(name);
            if (field == null) {
                diffs.add(new FieldDiff(name, entry.getValue().describe(names, v -> describe(name, v)),
                    "absent (the frame has no " + FrameFields.variants(name).get(0).header().label() + " header)"));
                continue;
            }
            final long raw = frame.get(field);
            final boolean psn = isPsnField(name) && base != null;
            final long actual = psn ? Psn.diff((int) raw, base) : raw;
            final long mask = psn ? Psn.MASK : -1L;
            if (!entry.getValue().matches(actual, names, mask)) {
                diffs.add(new FieldDiff(name, entry.getValue().describe(names, v -> describe(name, v)),
                    describe(name, actual) + (psn ? " [absolute " + hex(raw) + "]" : "")));
            }
        }
        if (template.payloadLength() != null && !template.payloadLength().matches(frame.payloadLength(), names, -1L)) {
            diffs.add(new FieldDiff("payload_len", template.payloadLength().describe(names, FrameCheck::number),
                number(frame.payloadLength())));
        }
        if (template.payload() != null && template.payload().pattern() != null) {
            final long offset = template.payload().offset() == null ? 0 : template.payload().offset().eval(names);
            final int length = template.payload().length() == null ? frame.payloadLength()
                : (int) template.payload().length().eval(names);
            final byte[] expected = template.payload().pattern().bytes(offset, length, names);
            final byte[] actual = frame.payload();
            if (!Arrays.equals(expected, actual)) {
                diffs.add(new FieldDiff("payload", length + " bytes of " + template.payload().pattern()
                    + " from offset " + offset, firstDifference(expected, actual)));
            }
        }
        return diffs;
    }

    private static void checkAddress(final DecodedFrame frame, final String name, final byte[] expected,
                                     final List<FieldDiff> diffs) {
        if (expected == null || !(frame.has(HeaderKind.IPV4) || frame.has(HeaderKind.IPV6))) {
            return;
        }
        final byte[] actual = name.equals("ip.src") ? frame.ipSource() : frame.ipDestination();
        if (!Arrays.equals(expected, actual)) {
            diffs.add(new FieldDiff(name, DecodedFrame.formatAddress(expected), DecodedFrame.formatAddress(actual)));
        }
    }

    /** Where two byte arrays first differ, as text. */
    static String firstDifference(final byte[] expected, final byte[] actual) {
        if (expected.length != actual.length) {
            return actual.length + " bytes (expected " + expected.length + ")";
        }
        for (int i = 0; i < expected.length; i++) {
            if (expected[i] != actual[i]) {
                int count = 0;
                for (int j = i; j < expected.length; j++) {
                    if (expected[j] != actual[j]) {
                        count++;
                    }
                }
                return count + " byte(s) differ, first at offset " + i + ": expected " + hexByte(expected[i])
                    + ", actual " + hexByte(actual[i]);
            }
        }
        return "equal";
    }

    private static String hexByte(final byte b) {
        return String.format(Locale.ROOT, "0x%02X", b & 0xFF);
    }

    static String describeOpcode(final Opcode opcode) {
        return opcode.name() + " (" + opcode.code() + ", 0x" + Integer.toHexString(opcode.code()).toUpperCase(
            Locale.ROOT) + ")";
    }

    /** A value of a named field in decimal and hex (opcodes and syndromes with their names). */
    static String describe(final String name, final long value) {
        if (name.equals("bth.opcode")) {
            return describeOpcode(Opcode.valueOf((int) value));
        }
        if (name.equals("aeth.syndrome")) {
            return org.metaroce.mrct.wire.AethSyndrome.valueOf((int) value).name() + " " + number(value);
        }
        if (name.equals("sacketh.bitmap")) {
            return String.format(Locale.ROOT, "0x%016X", value);
        }
        return number(value);
    }

    static String number(final long value) {
        return value + " (" + hex(value) + ")";
    }

    static String hex(final long value) {
        return (value < 0 ? "-0x" + Long.toHexString(-value) : "0x" + Long.toHexString(value)).toUpperCase(Locale.ROOT)
            .replace("0X", "0x");
    }

    /** True when the frame's opcode is a request (its PSN counts in the sender's send space). */
    static boolean isRequest(final Opcode opcode) {
        return opcode.kind().isRequest() || opcode.kind() == OpKind.UNKNOWN;
    }
}
