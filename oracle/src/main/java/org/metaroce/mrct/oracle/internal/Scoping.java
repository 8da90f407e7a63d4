package org.metaroce.mrct.oracle.internal;

import org.metaroce.mrct.oracle.Scope;
import org.metaroce.mrct.oracle.Vantage;
import org.metaroce.mrct.wire.DecodeError;
import org.metaroce.mrct.wire.DecodeFailure;
import org.metaroce.mrct.wire.DecodedFrame;
import org.metaroce.mrct.wire.HeaderKind;
import org.metaroce.mrct.wire.OpKind;
import org.metaroce.mrct.wire.Opcode;
import org.metaroce.mrct.wire.Transport;

/**
 * The scope of MetaRoCE v1 (Appendix F.1), frame by frame: which frames to UDP port 4791 the rules judge. The opcode's
 * service decides (bits 7-5 of bth.opcode, as InfiniBand assigns them): RC and the CNP are judged, every other service
 * is not. A datagram that is no BTH at all is told from a damaged MetaRoCE frame only for senders not known to be
 * MetaRoCE devices, and only on what a damaged frame cannot show: fewer than 16 bytes after the UDP header (no room
 * for a BTH and an ICRC), or a BTH whose version or opcode no RoCE sender uses together with an ICRC that does not
 * match. A known MetaRoCE device's frames are its own whatever they hold, so they stay judged (and fail), and so is a
 * frame of a flow (addresses and destination QP) whose RoCE frames the caller has already seen: it is a damaged frame
 * of that flow.
 */
public final class Scoping {
    /** The general services QP, where the connection manager's MADs go. */
    private static final int QP1 = 1;

    private Scoping() {
    }

    /**
     * The scope of a frame that was recognised as RoCEv2 (UDP port 4791), decoded or not.
     *
     * @param knownFlow the caller has seen RoCE frames of the frame's flow before
     */
    public static Scope of(final DecodedFrame f, final Vantage v, final boolean knownFlow) {
        final boolean unknownSender = !v.metaroceSender() && !knownFlow;
        if (!f.has(HeaderKind.BTH)) {
            final DecodeFailure failure = f.failure();
            if (unknownSender && failure != null && failure.error() == DecodeError.TRUNCATED && f.has(HeaderKind.UDP)
                && (failure.field().equals("bth") || failure.field().equals("icrc"))) {
                return new Scope(Scope.Kind.NOT_BTH, "a UDP datagram to port 4791 with "
                    + (f.udp().length() - 8) + " bytes of payload, too few for a BTH and an ICRC (16): another "
                    + "protocol on the RoCEv2 port");
            }
            return Scope.METAROCE;
        }
        final Opcode opcode = f.opcode();
        final int tver = f.tver();
        if (unknownSender && (tver > 1 || opcode.kind() == OpKind.UNKNOWN) && !icrcMatches(f)) {
            return new Scope(Scope.Kind.NOT_BTH, "bytes after a UDP header to port 4791 that are no RoCE BTH: "
                + (tver > 1 ? "bth.tver " + tver : "opcode " + opcode.name()) + " and an ICRC that does not match "
                + "(another protocol on the RoCEv2 port)");
        }
        final Transport transport = opcode.transport();
        if (transport == Transport.RC || opcode == Opcode.CNP) {
            return Scope.METAROCE; // every frame but a few: nothing allocated
        }
        final String op = "opcode " + hex(opcode.code()) + " (" + opcode.name() + ")";
        switch (transport) {
            case CNP:
                return new Scope(Scope.Kind.OTHER_SERVICE, op
                    + " of the CNP range that RoCEv2 does not assign: MetaRoCE v1 defines only the CNP 0x81");
            case UC:
                return new Scope(Scope.Kind.UC, op + " of the unreliable connected (UC) service: MetaRoCE v1 "
                    + "defines the reliable connected service only");
            case UD:
                if (f.bth().destQp() <= QP1) {
                    return new Scope(Scope.Kind.MAD, op + " to QP" + f.bth().destQp() + ": a management datagram ("
                        + (f.bth().destQp() == QP1 ? "general services, such as the connection manager's REQ, REP "
                        + "and RTU" : "subnet management") + "), carried by the UD service, not MetaRoCE's");
                }
                return new Scope(Scope.Kind.UD, op + " of the unreliable datagram (UD) service: MetaRoCE v1 "
                    + "defines the reliable connected service only");
            default:
                return new Scope(Scope.Kind.OTHER_SERVICE, op + " of the " + transport + " service: MetaRoCE v1 "
                    + "defines the reliable connected service only");
        }
    }

    private static boolean icrcMatches(final DecodedFrame f) {
        return f.has(HeaderKind.ICRC) && f.has(HeaderKind.UDP) && f.icrcValid();
    }

    private static String hex(final int code) {
        return String.format(java.util.Locale.ROOT, "0x%02X", code);
    }
}
