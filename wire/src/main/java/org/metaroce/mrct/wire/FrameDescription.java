package org.metaroce.mrct.wire;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * A decoded frame as nested maps of plain values (String, Long, Integer, Boolean, null), in the key order and with
 * the key names of the {@code mrct decode} output: {@code frame}, {@code ts_ns}, {@code roce}, {@code version},
 * {@code vlan}, {@code ip.*}, {@code udp.sport}, {@code bth.*}, one object per extension header present,
 * {@code payload_len}, {@code icrc.value}, {@code icrc.valid} and, for frames that failed to decode, {@code error}.
 * Dotted keys are nested objects ({@code bth.psn} is {@code {"bth": {"psn": ...}}}). 64-bit addresses and operands are
 * hex strings ({@code "0x00007f0000001000"}) so that JSON readers do not round them; the SACK bitmap is 16 hex digits.
 * Reports reuse this form for the frames in their evidence.
 */
public final class FrameDescription {
    private FrameDescription() {
    }

    /** Describes {@code frame} (as decoded) with its 1-based number and timestamp. */
    public static Map<String, Object> describe(final DecodedFrame frame, final long number, final long tsNanos) {
        final Map<String, Object> out = new LinkedHashMap<>();
        out.put("frame", number);
        out.put("ts_ns", tsNanos);
        final boolean roce = frame.status() != DecodeStatus.NOT_ROCE;
        out.put("roce", roce);
        if (!roce) {
            return out;
        }
        describeHeaders(frame, out);
        return out;
    }

    /** Describes the headers of a RoCE or malformed frame into {@code out} (without number and timestamp). */
    public static void describeHeaders(final DecodedFrame frame, final Map<String, Object> out) {
        out.put("version", frame.version() == RoceVersion.V1 ? "v1" : "v2");
        out.put("vlan", frame.has(HeaderKind.VLAN) ? (Object) frame.eth().vlanId() : null);
        if (frame.has(HeaderKind.IPV4) || frame.has(HeaderKind.IPV6)) {
            final Map<String, Object> ip = child(out, "ip");
            ip.put("src", DecodedFrame.formatAddress(frame.ipSource()));
            ip.put("dst", DecodedFrame.formatAddress(frame.ipDestination()));
            ip.put("dscp", frame.dscp());
            ip.put("ecn", frame.ecn());
        }
        if (frame.has(HeaderKind.UDP)) {
            child(out, "udp").put("sport", frame.udp().sourcePort());
        }
        if (frame.has(HeaderKind.BTH)) {
            final Map<String, Object> bth = child(out, "bth");
            bth.put("opcode", frame.bth().opcodeValue());
            bth.put("opname", frame.bth().opcode().name());
            bth.put("se", frame.bth().solicitedEvent());
            bth.put("m", frame.bth().migReq());
            bth.put("padcnt", frame.bth().padCount());
            bth.put("tver", frame.bth().tver());
            bth.put("pkey", frame.bth().pkey());
            bth.put("fecn", frame.bth().fecn());
            bth.put("becn", frame.bth().becn());
            bth.put("dqpn", frame.bth().destQp());
            bth.put("ackreq", frame.bth().ackReq());
            bth.put("psn", frame.bth().psn());
        }
        if (frame.has(HeaderKind.RETH)) {
            final Map<String, Object> reth = child(out, "reth");
            reth.put("va", hex64(frame.reth().va()));
            reth.put("rkey", Integer.toUnsignedLong(frame.reth().rkey()));
            reth.put("dmalen", frame.reth().dmaLength());
        }
        if (frame.has(HeaderKind.AETH)) {
            final Map<String, Object> aeth = child(out, "aeth");
            aeth.put("syndrome", frame.aeth().syndromeValue());
            aeth.put("msn", frame.aeth().msn());
        }
        if (frame.has(HeaderKind.PLETH)) {
            final Map<String, Object> pleth = child(out, "pleth");
            pleth.put("msn", frame.pleth().msn());
            pleth.put("first", frame.pleth().first());
            pleth.put("last", frame.pleth().last());
            pleth.put("offset", frame.pleth().messageOffset());
            pleth.put("rsn", frame.pleth().rsn());
        }
        if (frame.has(HeaderKind.SACKETH)) {
            final Map<String, Object> sack = child(out, "sacketh");
            sack.put("base", frame.sacketh().basePsn());
            sack.put("bitmap", String.format(Locale.ROOT, "%016x", frame.sacketh().bitmap()));
        }
        if (frame.has(HeaderKind.ATOMIC_ETH)) {
            final Map<String, Object> atomic = child(out, "atomiceth");
            atomic.put("va", hex64(frame.atomicEth().va()));
            atomic.put("rkey", Integer.toUnsignedLong(frame.atomicEth().rkey()));
            atomic.put("swap", hex64(frame.atomicEth().swapAdd()));
            atomic.put("compare", hex64(frame.atomicEth().compare()));
        }
        if (frame.has(HeaderKind.ATOMIC_ACK_ETH)) {
            child(out, "atomicacketh").put("orig", hex64(frame.atomicAckEth().original()));
        }
        if (frame.has(HeaderKind.IMMDT)) {
            out.put("immdt", Integer.toUnsignedLong(frame.immDt().immediate()));
        }
        if (frame.has(HeaderKind.IETH)) {
            child(out, "ieth").put("rkey", Integer.toUnsignedLong(frame.ieth().rkey()));
        }
        if (frame.has(HeaderKind.DETH)) {
            final Map<String, Object> deth = child(out, "deth");
            deth.put("qkey", Integer.toUnsignedLong(frame.deth().qkey()));
            deth.put("srcqp", frame.deth().srcQp());
        }
        if (frame.isRoce()) {
            out.put("payload_len", frame.payloadLength());
            final Map<String, Object> icrc = child(out, "icrc");
            icrc.put("value", wireHex(frame.icrcOnWire()));
            icrc.put("valid", frame.icrcValid());
        } else {
            final DecodeFailure failure = frame.failure();
            final Map<String, Object> error = child(out, "error");
            error.put("reason", failure.error().name());
            error.put("field", failure.field());
            error.put("offset", failure.offset());
            error.put("detail", failure.detail());
        }
    }

    /** {@code 0x} and 16 hex digits. */
    public static String hex64(final long value) {
        return String.format(Locale.ROOT, "0x%016x", value);
    }

    /** The four ICRC bytes in wire order (least significant first) as 8 hex digits. */
    public static String wireHex(final int icrcValue) {
        return String.format(Locale.ROOT, "%08x", Integer.reverseBytes(icrcValue));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> child(final Map<String, Object> parent, final String key) {
        return (Map<String, Object>) parent.computeIfAbsent(key, k -> new LinkedHashMap<String, Object>());
    }
}
