package org.metaroce.mrct.harness.cases;

import java.util.List;
import java.util.Map;
import org.metaroce.mrct.wire.Opcode;

/**
 * An expected frame: which connection it belongs to, the opcodes allowed, and matchers for named fields. The
 * acknowledgement shorthands ({@code ack}, {@code nak}, {@code rnr_nak}) are expanded into opcode and field matchers
 * when the case is loaded.
 *
 * @param connection the connection (its addresses and the harness QPN are checked implicitly), or null for any
 * @param opcodes allowed opcodes; empty for any
 * @param fields field name to matcher (field names as in {@code FrameFields}; PSN fields in script space)
 * @param icrcValid whether the ICRC must be valid (default true; null for don't care)
 * @param payload the payload the frame must carry (pattern window), or null
 * @param payloadLength matcher for the payload length, or null
 * @param line line of the template in the case file
 */
public record FrameTemplate(String connection, List<Opcode> opcodes, Map<String, Matcher> fields, Boolean icrcValid,
                            PayloadSpec payload, Matcher payloadLength, int line) {
    public FrameTemplate {
        opcodes = List.copyOf(opcodes);
        fields = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(fields));
    }

    /** One line: {@code ACKNOWLEDGE on q {bth.psn=-1, aeth.msn=0}}. */
    public String summary() {
        return (opcodes.isEmpty() ? "any frame" : String.join("|", opcodes.stream().map(Opcode::name).toList()))
            + (connection != null ? " on " + connection : "") + (fields.isEmpty() ? "" : " " + fields.keySet());
    }
}
