package org.metaroce.mrct.socket.agent;

import java.util.Locale;

/** The {@code error.type} values of the control-agent protocol (PROTOCOL.md, "Errors"). */
public enum ErrorType {
    /** The device refused the call as the specification requires (RejectedException on the client). */
    REJECTED,
    /** The device cannot do this at all (UnsupportedOperationException on the client). */
    UNSUPPORTED,
    /** The request breaks the protocol: malformed JSON, unknown op, missing or mistyped argument. */
    BAD_REQUEST,
    /** The request asks for more than the agent allows (QPs, region bytes, read or write size, line length). */
    LIMIT,
    /** No successful hello yet on this connection, or a wrong token. */
    AUTH,
    /** The agent or its device failed; the agent goes on serving. */
    INTERNAL;

    /** The wire name ({@code bad-request}). */
    public String label() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** The type with this wire name, or {@link #INTERNAL} for a name this client does not know. */
    public static ErrorType byLabel(final String label) {
        for (final ErrorType type : values()) {
            if (type.label().equals(label)) {
                return type;
            }
        }
        return INTERNAL;
    }
}
