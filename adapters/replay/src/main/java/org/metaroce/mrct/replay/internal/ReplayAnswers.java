package org.metaroce.mrct.replay.internal;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.metaroce.mrct.spi.Access;
import org.metaroce.mrct.spi.AdapterException;
import org.metaroce.mrct.spi.Completion;
import org.metaroce.mrct.spi.CompletionStatus;
import org.metaroce.mrct.spi.EvidenceUnavailableException;
import org.metaroce.mrct.spi.MemoryRegion;
import org.metaroce.mrct.spi.QpState;
import org.metaroce.mrct.spi.RejectedException;
import org.metaroce.mrct.spi.WorkOpcode;

/**
 * The recorded answers of control-plane calls turned back into what the {@code ControlPlane} methods return, and the
 * recorded errors into what they throw. A recorded value of the wrong shape throws {@link IllegalArgumentException}.
 */
public final class ReplayAnswers {
    private ReplayAnswers() {
    }

    /** The exception a recorded {@code error} stands for. */
    public static RuntimeException error(final String error) {
        final int colon = error.indexOf(": ");
        final String kind = colon < 0 ? error : error.substring(0, colon);
        final String message = colon < 0 ? "" : error.substring(colon + 2);
        switch (kind) {
            case "rejected":
                return new RejectedException(message);
            case "unsupported":
                return new UnsupportedOperationException(message);
            case "unavailable":
                return new EvidenceUnavailableException(message);
            case "adapter":
                return new AdapterException(message);
            default:
                return new AdapterException(error);
        }
    }

    public static int integer(final JsonNode node) {
        if (node == null || !node.canConvertToInt()) {
            throw new IllegalArgumentException("not a 32-bit number: " + node);
        }
        return node.intValue();
    }

    public static long number(final JsonNode node) {
        if (node == null || !node.isIntegralNumber() || !node.canConvertToLong()) {
            throw new IllegalArgumentException("not a 64-bit number: " + node);
        }
        return node.longValue();
    }

    /** A 32-bit key recorded unsigned. */
    public static int key(final JsonNode node) {
        final long value = number(node);
        if (value < 0 || value > 0xFFFF_FFFFL) {
            throw new IllegalArgumentException("not a 32-bit key: " + node);
        }
        return (int) value;
    }

    public static String text(final JsonNode node) {
        if (node == null || !node.isTextual()) {
            throw new IllegalArgumentException("not a string: " + node);
        }
        return node.textValue();
    }

    public static QpState state(final JsonNode node) {
        return QpState.valueOf(text(node));
    }

    public static MemoryRegion region(final JsonNode node) {
        final Set<Access> access = EnumSet.noneOf(Access.class);
        for (final JsonNode label : node.path("access")) {
            final Access right = Access.byLabel(text(label));
            if (right == null) {
                throw new IllegalArgumentException("unknown access right " + label);
            }
            access.add(right);
        }
        return new MemoryRegion(integer(node.get("pd")), number(node.get("va")), number(node.get("length")),
            key(node.get("lkey")), key(node.get("rkey")), access);
    }

    public static List<Completion> completions(final JsonNode node) {
        if (node == null || !node.isArray()) {
            throw new IllegalArgumentException("not a list of completions: " + node);
        }
        final List<Completion> out = new ArrayList<>();
        for (final JsonNode c : node) {
            final JsonNode immediate = c.path("immediate");
            final JsonNode invalidated = c.path("invalidated_rkey");
            final boolean hasImmediate = !immediate.isNull() && !immediate.isMissingNode();
            final boolean hasInvalidate = !invalidated.isNull() && !invalidated.isMissingNode();
            out.add(new Completion(integer(c.get("qpn")), number(c.get("wr_id")),
                WorkOpcode.valueOf(text(c.get("opcode"))), CompletionStatus.valueOf(text(c.get("status"))),
                number(c.get("byte_length")), hasImmediate ? key(immediate) : 0, hasImmediate,
                hasInvalidate ? key(invalidated) : 0, hasInvalidate, c.path("solicited").booleanValue(),
                number(c.get("timestamp_ns"))));
        }
        return out;
    }

    public static byte[] bytes(final JsonNode node) {
        return HexFormat.of().parseHex(text(node));
    }

    public static Map<String, Long> counters(final JsonNode node) {
        if (node == null || !node.isObject()) {
            throw new IllegalArgumentException("not a map of counters: " + node);
        }
        final Map<String, Long> out = new LinkedHashMap<>();
        for (final Map.Entry<String, JsonNode> field : node.properties()) {
            out.put(field.getKey(), number(field.getValue()));
        }
        return out;
    }
}
