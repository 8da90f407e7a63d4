package org.metaroce.mrct.oracle;

import java.util.Locale;

/**
 * Whether a frame to UDP port 4791 is MetaRoCE's to judge, and when it is not, why. MetaRoCE v1 defines the RC
 * service and the CNP (Appendix F.1): UC, UD (management datagrams on QP0 and QP1 among them), RD, XRC and the
 * manufacturer-specific opcodes are other services of RoCEv2 that a host may run beside it, and a datagram to port
 * 4791 that carries no BTH at all is another protocol's. The rules of this document bind none of them, so a judge
 * reports them as not applicable, with {@link #reason()}, and never as a violation.
 *
 * @param kind   what the frame is
 * @param reason one sentence saying what the frame is and why no rule binds it (empty for {@link Kind#METAROCE})
 */
public record Scope(Kind kind, String reason) {
    /** A frame MetaRoCE's rules judge: an RC opcode (assigned or not) or a CNP. */
    public static final Scope METAROCE = new Scope(Kind.METAROCE, "");

    /** What a frame to UDP port 4791 is. */
    public enum Kind {
        /** RC (opcodes 0x00-0x1F) or the CNP (0x81): judged. */
        METAROCE,
        /** The unreliable connected service (opcodes 0x20-0x3F). */
        UC,
        /** The unreliable datagram service (0x60-0x7F) to a QP other than 0 and 1. */
        UD,
        /** A management datagram: UD to QP1 (the general services interface: the connection manager) or QP0. */
        MAD,
        /** Another service of the opcode space: RD, XRC, manufacturer specific, the CNP range but 0x81. */
        OTHER_SERVICE,
        /** A datagram to port 4791 that does not decode as a BTH: too short, or a BTH no RoCE sender makes. */
        NOT_BTH;

        /** The lower-case label used in case IDs and counts ({@code not-bth}). */
        public String label() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }
    }

    public Scope {
        if (kind == null || reason == null) {
            throw new IllegalArgumentException("a scope needs its kind and reason");
        }
    }

    /** True when MetaRoCE's rules judge the frame. */
    public boolean judged() {
        return kind == Kind.METAROCE;
    }
}
