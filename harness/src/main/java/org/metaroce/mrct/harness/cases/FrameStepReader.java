package org.metaroce.mrct.harness.cases;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.metaroce.mrct.harness.yaml.YList;
import org.metaroce.mrct.harness.yaml.YMap;
import org.metaroce.mrct.harness.yaml.YNode;
import org.metaroce.mrct.harness.yaml.YScalar;
import org.metaroce.mrct.wire.FrameField;
import org.metaroce.mrct.wire.FrameFields;
import org.metaroce.mrct.wire.HeaderKind;
import org.metaroce.mrct.wire.Opcode;

/** Reads the steps in which the harness sends frames: {@code send} (one frame), {@code message} and {@code flow}. */
final class FrameStepReader {
    private static final Domain VLAN_OR_NONE = new Domain("a VLAN ID or -1 for none", -1, 4095, false);
    private static final Domain TVER = Domain.bits("a TVer", 4);
    private static final Domain PMTU = new Domain("a PMTU", 1, 65_536, false);
    private static final Domain RNR_TIMER = Domain.bits("an RNR timer code", 5);

    private final ReadScope s;
    private final TemplateReader templates;

    FrameStepReader(final ReadScope scope, final TemplateReader templates) {
        this.s = scope;
        this.templates = templates;
    }

    TemplateReader templates() {
        return templates;
    }

    Step step(final String kind, final YNode body) {
        final YMap map = s.b.map(body, kind);
        if (map == null) {
            return null;
        }
        switch (kind) {
            case "send": {
                final PacketSpec packet = packet(map);
                return packet == null ? null : new Step.Send(packet);
            }
            case "message": {
                final MessageSpec message = message(map);
                return message == null ? null : new Step.Message(message);
            }
            default:
                return flow(map);
        }
    }

    private PacketSpec packet(final YMap map) {
        s.b.onlyKeys(map, "send", "qp", "opcode", "psn", "ackreq", "msn", "first", "last", "offset", "rsn", "mr",
            "mr_offset", "dmalen", "imm", "invalidate", "swap", "add", "compare", "payload", "ecn", "network", "vlan",
            "fields", "headers", "pad", "truncate", "trailer", "bad_icrc", "udp_checksum", "tver", "ip_options", "ack",
            "nak", "rnr_nak", "cnp");
        final String connection = s.connectionRef(map, "qp");
        final Map<String, Expr> sugarFields = new LinkedHashMap<>();
        final Opcode sugarOpcode = responseSugar(map, sugarFields);
        if (sugarOpcode != null && map.has("opcode")) {
            s.problemAt(map, "opcode", "give either opcode or one of ack, nak, rnr_nak, cnp");
        }
        final Opcode opcode = sugarOpcode != null ? sugarOpcode
            : opcode(map, s.b.string(s.b.required(map, "opcode", "send"), "opcode"));
        final String region = s.regionRef(map, "mr", "send");
        final String invalidate = s.regionRef(map, "invalidate", "send");
        final String networkText = s.b.optionalString(map, "network", "send");
        final IpVersion network = networkText == null ? null : IpVersion.byLabel(networkText);
        if (networkText != null && network == null) {
            s.problemAt(map, "network", "network must be ipv4 or ipv6");
        }
        List<HeaderKind> headers = null;
        if (map.has("headers")) {
            headers = new ArrayList<>();
            for (final String header : s.b.strings(map.get("headers"), "headers")) {
                final HeaderKind kind = s.enumValue(map, "headers", header, HeaderKind.class);
                if (kind != null) {
                    headers.add(kind);
                }
            }
        }
        Expr padLength = null;
        Expr padFill = null;
        if (map.has("pad")) {
            final YMap pad = s.b.map(map.get("pad"), "pad");
            if (pad != null) {
                s.b.onlyKeys(pad, "pad", "length", "fill");
                padLength = s.optionalExpr(pad, "length", Domain.BYTES);
                padFill = s.optionalExpr(pad, "fill", Domain.U8);
            }
        }
        final String udpChecksum = s.b.optionalString(map, "udp_checksum", "send");
        if (udpChecksum != null && !udpChecksum.equals("valid") && !udpChecksum.equals("zero")
            && !udpChecksum.equals("bad")) {
            s.problemAt(map, "udp_checksum", "udp_checksum must be valid, zero or bad");
        }
        final byte[] ipOptions = map.has("ip_options") ? s.b.parse(map.get("ip_options"), "ip_options",
            Pattern::parseHex) : null;
        if (ipOptions != null && (ipOptions.length % 4 != 0 || ipOptions.length > 40)) {
            s.problemAt(map, "ip_options", "ip_options must be a multiple of 4 bytes, at most 40, not "
                + ipOptions.length);
        }
        if (opcode == null) {
            return null;
        }
        return new PacketSpec(connection, opcode, s.optionalExpr(map, "psn", Domain.RELATIVE_PSN),
            s.optionalBool(map, "ackreq", "send"), s.optionalExpr(map, "msn", Domain.SEQUENCE),
            s.optionalBool(map, "first", "send"), s.optionalBool(map, "last", "send"),
            s.optionalExpr(map, "offset", Domain.U32), s.optionalExpr(map, "rsn", Domain.SEQUENCE), region,
            s.optionalExpr(map, "mr_offset"), s.optionalExpr(map, "dmalen", Domain.U32),
            s.optionalExpr(map, "imm", Domain.U32), invalidate,
            map.has("swap") ? s.optionalExpr(map, "swap") : s.optionalExpr(map, "add"),
            s.optionalExpr(map, "compare"),
            map.has("payload") ? templates.payload(map.get("payload"), "payload") : null, ecn(map),
            network, s.optionalExpr(map, "vlan", VLAN_OR_NONE),
            merged(sugarFields, fieldValues(map.get("fields"))), headers, padLength, padFill,
            s.optionalExpr(map, "truncate", Domain.BYTES), s.optionalExpr(map, "trailer", Domain.BYTES),
            s.flag(map, "bad_icrc", "send", false), "valid".equals(udpChecksum),
            s.optionalExpr(map, "tver", TVER), "bad".equals(udpChecksum), ipOptions, map.line());
    }

    private Opcode opcode(final YMap map, final String name) {
        if (name == null) {
            return null;
        }
        final Opcode opcode = Opcode.byName(name);
        if (opcode == null) {
            s.problemAt(map, "opcode", "unknown opcode '" + name + "'");
        }
        return opcode;
    }

    private static Map<String, Expr> merged(final Map<String, Expr> first, final Map<String, Expr> second) {
        final Map<String, Expr> out = new LinkedHashMap<>(first);
        out.putAll(second);
        return out;
    }

    /**
     * The acknowledgement shorthands of a {@code send} step (the harness as responder of a requester case): {@code ack:
     * {psn, msn, sack}} is an ACK whose cumulative point is psn (bth.psn psn - 1, sacketh.base psn), {@code nak: {code,
     * psn, epsn, msn}} and {@code rnr_nak: {psn, timer, epsn, msn}} name the rejected PSN, {@code cnp: true} a CNP.
     * PSNs count in the device's request space. Returns the opcode, or null when the step uses none.
     */
    private Opcode responseSugar(final YMap map, final Map<String, Expr> fields) {
        int used = 0;
        Opcode opcode = null;
        if (map.has("ack")) {
            used++;
            final YMap ack = s.b.map(map.get("ack"), "ack");
            if (ack != null) {
                s.b.onlyKeys(ack, "ack", "psn", "msn", "sack", "bitmap");
                final Expr psn = s.requiredExpr(ack, "psn", "ack", Domain.RELATIVE_PSN);
                if (psn != null) {
                    fields.put("bth.psn", Expr.parse("(" + psn + ") - 1"));
                    fields.put("aeth.syndrome", Expr.of(0x1F));
                    fields.put("sacketh.base", psn);
                    fields.put("aeth.msn", ack.has("msn") ? s.expr(ack.get("msn"), "msn", Domain.SEQUENCE)
                        : Expr.of(0));
                    fields.put("sacketh.bitmap", sackBitmap(ack, psn));
                }
            }
            opcode = Opcode.ACKNOWLEDGE;
        }
        if (map.has("nak") || map.has("rnr_nak")) {
            used += (map.has("nak") ? 1 : 0) + (map.has("rnr_nak") ? 1 : 0);
            final boolean rnr = map.has("rnr_nak");
            final String what = rnr ? "rnr_nak" : "nak";
            final YMap nak = s.b.map(map.get(what), what);
            if (nak != null) {
                s.b.onlyKeys(nak, what, rnr ? "timer" : "code", "psn", "epsn", "msn", "sack", "bitmap");
                final Expr psn = s.requiredExpr(nak, "psn", what, Domain.RELATIVE_PSN);
                final Expr timer = rnr && nak.has("timer") ? s.expr(nak.get("timer"), "timer", RNR_TIMER)
                    : Expr.of(1);
                final Expr code = rnr ? (timer == null ? null : Expr.parse("0x20 | (" + timer + ")"))
                    : s.requiredExpr(nak, "code", what, Domain.U8);
                if (psn != null && code != null) {
                    final Expr epsn = nak.has("epsn") ? s.expr(nak.get("epsn"), "epsn", Domain.RELATIVE_PSN) : psn;
                    fields.put("bth.psn", psn);
                    fields.put("aeth.syndrome", code);
                    fields.put("sacketh.base", epsn);
                    fields.put("aeth.msn", nak.has("msn") ? s.expr(nak.get("msn"), "msn", Domain.SEQUENCE)
                        : Expr.of(0));
                    fields.put("sacketh.bitmap", epsn == null ? null : sackBitmap(nak, epsn));
                }
            }
            opcode = Opcode.ACKNOWLEDGE;
        }
        if (map.has("cnp")) {
            used++;
            if (!s.b.bool(map.get("cnp"), "cnp", true)) {
                s.problemAt(map, "cnp", "cnp takes true");
            }
            opcode = Opcode.CNP;
        }
        if (used > 1) {
            s.b.problem(map, "use at most one of ack, nak, rnr_nak, cnp in one send step");
        }
        fields.values().removeIf(java.util.Objects::isNull);
        return opcode;
    }

    private Expr sackBitmap(final YMap map, final Expr base) {
        if (map.has("bitmap")) {
            return s.expr(map.get("bitmap"), "bitmap");
        }
        if (!map.has("sack")) {
            return Expr.of(0);
        }
        final List<Expr> psns = s.exprs(map.get("sack"), "sack", Domain.RELATIVE_PSN);
        return psns.isEmpty() ? Expr.of(0) : TemplateReader.bits(psns, base);
    }

    private Expr ecn(final YMap map) {
        if (!map.has("ecn")) {
            return null;
        }
        final YNode node = map.get("ecn");
        if (node instanceof YScalar scalar && scalar.value() instanceof String text) {
            switch (text.toLowerCase(Locale.ROOT)) {
                case "ce":
                    return Expr.of(3);
                case "ect0":
                    return Expr.of(2);
                case "ect1":
                    return Expr.of(1);
                case "not-ect":
                    return Expr.of(0);
                default:
                    break;
            }
        }
        return s.expr(node, "ecn", Domain.ECN);
    }

    /** Raw field overrides: constants are checked against the field's width (PSN fields in script space). */
    Map<String, Expr> fieldValues(final YNode node) {
        final Map<String, Expr> out = new LinkedHashMap<>();
        final YMap map = s.b.map(node, "fields");
        if (map == null) {
            return out;
        }
        for (final Map.Entry<String, YNode> entry : map.entries().entrySet()) {
            if (!FrameFields.exists(entry.getKey())) {
                s.problemAt(map, entry.getKey(), "unknown field '" + entry.getKey() + "'");
                continue;
            }
            final Expr expr = s.expr(entry.getValue(), entry.getKey(), fieldDomain(entry.getKey()));
            if (expr != null) {
                out.put(entry.getKey(), expr);
            }
        }
        return out;
    }

    private static Domain fieldDomain(final String name) {
        if (name.equals("bth.psn") || name.equals("sacketh.base")) {
            return Domain.RELATIVE_PSN;
        }
        int width = 0;
        for (final FrameField field : FrameFields.variants(name)) {
            if (field.isAddress()) {
                return Domain.ANY;
            }
            width = Math.max(width, field.width());
        }
        return Domain.bits("a " + width + "-bit field", width);
    }

    private MessageSpec message(final YMap map) {
        s.b.onlyKeys(map, "message", "qp", "op", "mr", "offset", "length", "payload", "imm", "invalidate", "swap",
            "add", "compare", "rkey", "pmtu", "order", "drop", "duplicate", "ce", "ackreq", "fields", "gap");
        final String connection = s.connectionRef(map, "qp");
        final MessageOp op = op(map, s.b.string(s.b.required(map, "op", "message"), "op"));
        final String region = s.regionRef(map, "mr", "message");
        if (op != null && !op.isSend() && region == null) {
            s.b.problem(map, "a " + op.label() + " message needs 'mr' (the remote region)");
        }
        final String invalidate = s.regionRef(map, "invalidate", "message");
        AckReqMode ackReq = AckReqMode.LAST;
        List<Expr> ackReqIndices = List.of();
        if (map.has("ackreq")) {
            final YNode node = map.get("ackreq");
            if (node instanceof YList) {
                ackReq = AckReqMode.INDICES;
                ackReqIndices = s.exprs(node, "ackreq", Domain.INDEX);
            } else {
                final String text = s.b.string(node, "ackreq");
                ackReq = text == null ? null : switch (text) {
                    case "last" -> AckReqMode.LAST;
                    case "all" -> AckReqMode.ALL;
                    case "none" -> AckReqMode.NONE;
                    default -> null;
                };
                if (text != null && ackReq == null) {
                    s.b.problem(node, "ackreq must be last, all, none or a list of packet indices");
                }
            }
        }
        final Expr length = op != null && op.isAtomic() && !map.has("length") ? Expr.of(8)
            : s.requiredExpr(map, "length", "message", Domain.BYTES);
        if (op == null || length == null || ackReq == null) {
            return null;
        }
        return new MessageSpec(connection, op, region, s.optionalExpr(map, "offset"), length,
            map.has("payload") ? templates.payload(map.get("payload"), "payload") : null,
            s.optionalExpr(map, "imm", Domain.U32), invalidate,
            map.has("swap") ? s.optionalExpr(map, "swap") : s.optionalExpr(map, "add"),
            s.optionalExpr(map, "compare"), s.optionalExpr(map, "rkey", Domain.U32),
            s.optionalExpr(map, "pmtu", PMTU), s.exprs(map.get("order"), "order", Domain.INDEX),
            s.exprs(map.get("drop"), "drop", Domain.INDEX), s.exprs(map.get("duplicate"), "duplicate", Domain.INDEX),
            s.exprs(map.get("ce"), "ce", Domain.INDEX), ackReq, ackReqIndices, fieldValues(map.get("fields")),
            s.optionalExpr(map, "gap", Domain.DURATION), map.line());
    }

    /** The {@code op} of a message or work request. */
    MessageOp op(final YMap map, final String text) {
        return s.word(map, "op", text, MessageOp::byLabel, "op",
            Arrays.stream(MessageOp.values()).map(MessageOp::label).toList());
    }

    private Step flow(final YMap map) {
        s.b.onlyKeys(map, "flow", "qp", "messages", "packets", "settle");
        final String connection = s.connectionRef(map, "qp");
        final List<MessageSpec> messages = new ArrayList<>();
        for (final YNode node : s.b.list(s.b.required(map, "messages", "flow"))) {
            final YMap message = s.b.map(node, "a flow message");
            if (message != null) {
                if (message.has("order") || message.has("drop") || message.has("duplicate") || message.has("ce")) {
                    s.b.problem(message, "a flow message takes no order, drop, duplicate or ce: the flow's packets "
                        + "list says how its packets are sent");
                }
                final MessageSpec spec = message(message);
                if (spec != null) {
                    messages.add(spec);
                }
            }
        }
        final List<FlowSpec.Packet> packets = new ArrayList<>();
        for (final YNode node : s.b.list(s.b.required(map, "packets", "flow"))) {
            final FlowSpec.Packet packet = s.b.parse(node, "packets", FlowSpec.Packet::parse);
            if (packet != null) {
                if (packet.message() < 0 || packet.message() >= messages.size()) {
                    s.b.problem(node, "packet " + packet.text() + " names message " + packet.message() + " of "
                        + messages.size());
                }
                packets.add(packet);
            }
        }
        return new Step.Flow(new FlowSpec(connection, messages, packets, s.optionalExpr(map, "settle",
            Domain.DURATION), map.line()));
    }
}
