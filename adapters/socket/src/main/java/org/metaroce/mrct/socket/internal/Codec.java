package org.metaroce.mrct.socket.internal;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigInteger;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.metaroce.mrct.spi.Access;
import org.metaroce.mrct.spi.Completion;
import org.metaroce.mrct.spi.CompletionStatus;
import org.metaroce.mrct.spi.MemoryRegion;
import org.metaroce.mrct.spi.QpAttribute;
import org.metaroce.mrct.spi.QpAttributes;
import org.metaroce.mrct.spi.QpState;
import org.metaroce.mrct.spi.ReceiveWqe;
import org.metaroce.mrct.spi.SendWqe;
import org.metaroce.mrct.spi.WorkOpcode;
import org.metaroce.mrct.wire.MacAddress;

/**
 * The JSON forms of the control-agent protocol's values (PROTOCOL.md), both ways. Readers check every argument's
 * presence, type and range and throw {@link BadRequest} naming the argument, so that the agent can answer
 * {@code bad-request} and the client can tell a broken agent from a device's refusal.
 *
 * <p>Conventions: 64-bit addresses and opaque values ({@code va}, {@code wr_id}, {@code compare_add}, {@code swap})
 * are written as strings of {@code 0x} and 16 hex digits, so that no JSON reader rounds them, and read from such a
 * string, a decimal string or a JSON number; keys, QPNs, lengths and PDs are JSON numbers (32-bit values unsigned);
 * enumerations (states, opcodes, statuses, access rights, capabilities) are their lower-case names.
 */
public final class Codec {
    /** The one mapper of the protocol (thread-safe once configured). */
    public static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final BigInteger U64_LIMIT = BigInteger.ONE.shiftLeft(64);

    private Codec() {
    }

    /** A request argument or an answer that breaks the protocol. */
    public static final class BadRequest extends RuntimeException {
        private static final long serialVersionUID = 1L;

        public BadRequest(final String message) {
            super(message);
        }
    }

    public static ObjectNode object() {
        return NODES.objectNode();
    }

    // ------------------------------------------------------------------ scalars

    /** A required object argument. */
    public static JsonNode required(final JsonNode args, final String name) {
        final JsonNode value = args == null ? null : args.get(name);
        if (value == null || value.isNull()) {
            throw new BadRequest("missing argument '" + name + "'");
        }
        return value;
    }

    /** A 32-bit value (signed or unsigned range) as an int. */
    public static int u32(final JsonNode args, final String name) {
        final JsonNode value = required(args, name);
        if (!value.isIntegralNumber() || !value.canConvertToLong() || value.asLong() < Integer.MIN_VALUE
            || value.asLong() > 0xFFFF_FFFFL) {
            throw new BadRequest("argument '" + name + "' must be an integer of 32 bits, not " + value);
        }
        return (int) value.asLong();
    }

    /** A non-negative integer up to {@code max}. */
    public static long count(final JsonNode args, final String name, final long max) {
        final JsonNode value = required(args, name);
        if (!value.isIntegralNumber() || !value.canConvertToLong() || value.asLong() < 0 || value.asLong() > max) {
            throw new BadRequest("argument '" + name + "' must be an integer from 0 to " + max + ", not " + value);
        }
        return value.asLong();
    }

    /** A 64-bit value from {@code "0x..."}, a decimal string or a JSON number (unsigned up to 2^64 - 1). */
    public static long u64(final JsonNode args, final String name) {
        return u64Value(required(args, name), name);
    }

    private static long u64Value(final JsonNode value, final String name) {
        final BigInteger number;
        try {
            if (value.isIntegralNumber()) {
                number = value.bigIntegerValue();
            } else if (value.isTextual()) {
                final String text = value.asText().trim();
                number = text.startsWith("0x") || text.startsWith("0X") ? new BigInteger(text.substring(2), 16)
                    : new BigInteger(text);
            } else {
                throw new NumberFormatException();
            }
        } catch (NumberFormatException e) {
            throw new BadRequest("argument '" + name + "' must be a 64-bit integer (\"0x...\" or a number), not "
                + value);
        }
        if (number.signum() < 0 ? number.compareTo(BigInteger.valueOf(Long.MIN_VALUE)) < 0
            : number.compareTo(U64_LIMIT) >= 0) {
            throw new BadRequest("argument '" + name + "' does not fit 64 bits: " + value);
        }
        return number.longValue();
    }

    /** The protocol's text form of a 64-bit value. */
    public static String hex64(final long value) {
        return String.format(Locale.ROOT, "0x%016x", value);
    }

    public static boolean bool(final JsonNode args, final String name) {
        final JsonNode value = required(args, name);
        if (!value.isBoolean()) {
            throw new BadRequest("argument '" + name + "' must be true or false, not " + value);
        }
        return value.booleanValue();
    }

    public static String text(final JsonNode args, final String name) {
        final JsonNode value = required(args, name);
        if (!value.isTextual()) {
            throw new BadRequest("argument '" + name + "' must be a string, not " + value);
        }
        return value.asText();
    }

    /** An enumeration constant from its name in any case ({@code rts}, {@code RTS}). */
    public static <E extends Enum<E>> E enumeration(final JsonNode args, final String name, final Class<E> type) {
        final String text = text(args, name);
        for (final E constant : type.getEnumConstants()) {
            if (constant.name().equalsIgnoreCase(text.replace('-', '_'))) {
                return constant;
            }
        }
        throw new BadRequest("argument '" + name + "' must be one of " + names(type) + ", not \"" + text + "\"");
    }

    private static <E extends Enum<E>> String names(final Class<E> type) {
        final StringBuilder out = new StringBuilder();
        for (final E constant : type.getEnumConstants()) {
            out.append(out.length() == 0 ? "" : ", ").append(lower(constant));
        }
        return out.toString();
    }

    public static String lower(final Enum<?> constant) {
        return constant.name().toLowerCase(Locale.ROOT);
    }

    // ------------------------------------------------------------------ access rights and MACs

    public static ArrayNode access(final Set<Access> access) {
        final ArrayNode out = NODES.arrayNode();
        for (final Access right : Access.values()) {
            if (access.contains(right)) {
                out.add(right.label());
            }
        }
        return out;
    }

    public static Set<Access> access(final JsonNode args, final String name) {
        final JsonNode value = required(args, name);
        return accessValue(value, name);
    }

    private static Set<Access> accessValue(final JsonNode value, final String name) {
        if (!value.isArray()) {
            throw new BadRequest("argument '" + name + "' must be a list of access rights, not " + value);
        }
        final Set<Access> out = EnumSet.noneOf(Access.class);
        for (final JsonNode item : value) {
            final Access right = item.isTextual() ? Access.byLabel(item.asText()) : null;
            if (right == null) {
                throw new BadRequest("argument '" + name + "' holds " + item + ", not one of local_write, "
                    + "remote_write, remote_read, remote_atomic");
            }
            out.add(right);
        }
        return out;
    }

    // ------------------------------------------------------------------ QP attributes

    /** Attributes as an object of their snake_case names; {@code dest_mac} as a MAC string. */
    public static ObjectNode attributes(final QpAttributes attributes) {
        final ObjectNode out = NODES.objectNode();
        for (final Map.Entry<QpAttribute, Object> entry : attributes.asMap().entrySet()) {
            final String name = entry.getKey().label();
            final Object value = entry.getValue();
            if (entry.getKey() == QpAttribute.DEST_MAC) {
                out.put(name, MacAddress.format(((Number) value).longValue()));
                continue;
            }
            switch (entry.getKey().type()) {
                case INT -> out.put(name, (Integer) value);
                case LONG -> out.put(name, (Long) value);
                case DOUBLE -> out.put(name, (Double) value);
                case BOOL -> out.put(name, (Boolean) value);
                case STRING -> out.put(name, (String) value);
                default -> {
                    @SuppressWarnings("unchecked")
                    final Set<Access> access = (Set<Access>) value;
                    out.set(name, access(access));
                }
            }
        }
        return out;
    }

    public static QpAttributes attributes(final JsonNode args, final String name) {
        final JsonNode value = args == null ? null : args.get(name);
        if (value == null || value.isNull()) {
            return QpAttributes.empty();
        }
        if (!value.isObject()) {
            throw new BadRequest("argument '" + name + "' must be an object of QP attributes, not " + value);
        }
        QpAttributes out = QpAttributes.empty();
        for (final Map.Entry<String, JsonNode> entry : value.properties()) {
            final QpAttribute attribute = QpAttribute.byLabel(entry.getKey());
            if (attribute == null) {
                throw new BadRequest("unknown QP attribute '" + entry.getKey() + "'");
            }
            out = out.with(attribute, attributeValue(attribute, entry.getValue()));
        }
        return out;
    }

    private static Object attributeValue(final QpAttribute attribute, final JsonNode value) {
        final String where = "attribute '" + attribute.label() + "'";
        if (attribute == QpAttribute.DEST_MAC && value.isTextual()) {
            final long mac = MacAddress.parse(value.asText());
            if (mac < 0) {
                throw new BadRequest(where + " must be a MAC (aa:bb:cc:dd:ee:ff), not " + value);
            }
            return mac;
        }
        switch (attribute.type()) {
            case INT:
                if (value.isIntegralNumber() && value.canConvertToInt()) {
                    return value.intValue();
                }
                if (value.isIntegralNumber() && value.canConvertToLong() && value.asLong() >= 0
                    && value.asLong() <= 0xFFFF_FFFFL) {
                    return (int) value.asLong();
                }
                break;
            case LONG:
                if (value.isIntegralNumber() && value.canConvertToLong()) {
                    return value.asLong();
                }
                break;
            case DOUBLE:
                if (value.isNumber()) {
                    return value.asDouble();
                }
                break;
            case BOOL:
                if (value.isBoolean()) {
                    return value.booleanValue();
                }
                break;
            case STRING:
                if (value.isTextual()) {
                    return value.asText();
                }
                break;
            default:
                return accessValue(value, attribute.label());
        }
        throw new BadRequest(where + " takes " + attribute.type().name().toLowerCase(Locale.ROOT) + ", not " + value);
    }

    // ------------------------------------------------------------------ records

    public static ObjectNode memoryRegion(final MemoryRegion mr) {
        final ObjectNode out = NODES.objectNode();
        out.put("pd", mr.pd());
        out.put("va", hex64(mr.va()));
        out.put("length", mr.length());
        out.put("lkey", Integer.toUnsignedLong(mr.lkey()));
        out.put("rkey", Integer.toUnsignedLong(mr.rkey()));
        out.set("access", access(mr.access()));
        return out;
    }

    public static MemoryRegion memoryRegion(final JsonNode node) {
        return new MemoryRegion(u32(node, "pd"), u64(node, "va"), count(node, "length", Long.MAX_VALUE),
            u32(node, "lkey"), u32(node, "rkey"), access(node, "access"));
    }

    public static ObjectNode receiveWqe(final int qpn, final ReceiveWqe wqe) {
        final ObjectNode out = NODES.objectNode();
        out.put("qpn", qpn);
        out.put("wr_id", hex64(wqe.wrId()));
        out.put("va", hex64(wqe.va()));
        out.put("length", Integer.toUnsignedLong(wqe.length()));
        out.put("lkey", Integer.toUnsignedLong(wqe.lkey()));
        return out;
    }

    public static ReceiveWqe receiveWqe(final JsonNode args) {
        return new ReceiveWqe(u64(args, "wr_id"), u64(args, "va"), (int) count(args, "length", Integer.MAX_VALUE),
            u32(args, "lkey"));
    }

    public static ObjectNode sendWqe(final int qpn, final SendWqe wqe) {
        final ObjectNode out = NODES.objectNode();
        out.put("qpn", qpn);
        out.put("wr_id", hex64(wqe.wrId()));
        out.put("opcode", lower(wqe.opcode()));
        out.put("local_va", hex64(wqe.localVa()));
        out.put("length", wqe.length());
        out.put("lkey", Integer.toUnsignedLong(wqe.lkey()));
        out.put("remote_va", hex64(wqe.remoteVa()));
        out.put("rkey", Integer.toUnsignedLong(wqe.rkey()));
        out.put("immediate", Integer.toUnsignedLong(wqe.immediate()));
        out.put("compare_add", hex64(wqe.compareAdd()));
        out.put("swap", hex64(wqe.swap()));
        out.put("signaled", wqe.signaled());
        out.put("fence", wqe.fence());
        out.put("solicited", wqe.solicited());
        return out;
    }

    public static SendWqe sendWqe(final JsonNode args) {
        return new SendWqe(u64(args, "wr_id"), enumeration(args, "opcode", WorkOpcode.class), u64(args, "local_va"),
            count(args, "length", Long.MAX_VALUE), u32(args, "lkey"), u64(args, "remote_va"), u32(args, "rkey"),
            u32(args, "immediate"), u64(args, "compare_add"), u64(args, "swap"), bool(args, "signaled"),
            args.has("fence") && bool(args, "fence"), args.has("solicited") && bool(args, "solicited"));
    }

    public static ObjectNode completion(final Completion c) {
        final ObjectNode out = NODES.objectNode();
        out.put("qpn", c.qpn());
        out.put("wr_id", hex64(c.wrId()));
        out.put("opcode", lower(c.opcode()));
        out.put("status", lower(c.status()));
        out.put("byte_length", c.byteLength());
        if (c.hasImmediate()) {
            out.put("immediate", Integer.toUnsignedLong(c.immediate()));
        }
        if (c.hasInvalidate()) {
            out.put("invalidated_rkey", Integer.toUnsignedLong(c.invalidatedRkey()));
        }
        out.put("solicited", c.solicited());
        out.put("timestamp_ns", c.timestampNanos());
        return out;
    }

    public static Completion completion(final JsonNode node) {
        final JsonNode immediate = node.get("immediate");
        final JsonNode invalidated = node.get("invalidated_rkey");
        return new Completion(u32(node, "qpn"), u64(node, "wr_id"), enumeration(node, "opcode", WorkOpcode.class),
            enumeration(node, "status", CompletionStatus.class), count(node, "byte_length", Long.MAX_VALUE),
            immediate == null || immediate.isNull() ? 0 : u32(node, "immediate"),
            immediate != null && !immediate.isNull(),
            invalidated == null || invalidated.isNull() ? 0 : u32(node, "invalidated_rkey"),
            invalidated != null && !invalidated.isNull(), node.path("solicited").asBoolean(false),
            node.path("timestamp_ns").asLong(0));
    }

    public static QpState state(final JsonNode args, final String name) {
        return enumeration(args, name, QpState.class);
    }
}
