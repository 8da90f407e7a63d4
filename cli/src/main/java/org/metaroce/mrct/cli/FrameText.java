package org.metaroce.mrct.cli;

import java.util.Locale;
import org.metaroce.mrct.wire.DecodeFailure;
import org.metaroce.mrct.wire.DecodeStatus;
import org.metaroce.mrct.wire.DecodedFrame;
import org.metaroce.mrct.wire.HeaderKind;
import org.metaroce.mrct.wire.RoceVersion;

/**
 * The one-line human form of a frame for {@code mrct decode --format text}. Fixed-width columns first (frame number,
 * seconds since the file's first frame, {@code src > dst}, opcode name, PSN, destination QP, payload length, ICRC
 * verdict), then the variable part: markers (RoCEv1, TVer, VLAN, ECN CE, FECN, BECN) and every extension header
 * present with its key fields, in wire order. Malformed frames show the decode failure in place of the numbers.
 */
final class FrameText {
    private static final int ADDRESS_WIDTH = 33;
    private static final int OPCODE_WIDTH = 30;
    private static final long NANOS_PER_SECOND = 1_000_000_000L;

    private FrameText() {
    }

    /** The line for a decoded frame (without a line separator). */
    static String line(final DecodedFrame frame, final long number, final long relativeNanos) {
        final StringBuilder line = new StringBuilder(160);
        prefix(line, number, relativeNanos);
        if (frame.status() == DecodeStatus.NOT_ROCE) {
            return line.append("not RoCE (").append(frame.frameLength()).append(" bytes)").toString();
        }
        final boolean hasIp = frame.has(HeaderKind.IPV4) || frame.has(HeaderKind.IPV6);
        pad(line, hasIp ? DecodedFrame.formatAddress(frame.ipSource()) + " > "
            + DecodedFrame.formatAddress(frame.ipDestination()) : "-", ADDRESS_WIDTH);
        line.append("  ");
        pad(line, frame.has(HeaderKind.BTH) ? frame.bth().opcode().name() : "-", OPCODE_WIDTH);
        if (frame.status() == DecodeStatus.MALFORMED) {
            final DecodeFailure failure = frame.failure();
            return line.append("  MALFORMED ").append(failure.error()).append(" at byte ").append(failure.offset())
                .append(" (").append(failure.field()).append("): ").append(failure.detail()).toString();
        }
        line.append(String.format(Locale.ROOT, "  psn %8d  qpn 0x%06x  len %5d  icrc %-3s", frame.bth().psn(),
            frame.bth().destQp(), frame.payloadLength(), frame.icrcValid() ? "ok" : "BAD"));
        markers(line, frame);
        headers(line, frame);
        return stripEnd(line);
    }

    /** The line for a frame of a link type that is not decoded. */
    static String undecoded(final long number, final long relativeNanos, final int linkType,
                            final int capturedLength) {
        final StringBuilder line = new StringBuilder(80);
        prefix(line, number, relativeNanos);
        return line.append("link type ").append(linkType).append(", not Ethernet: not decoded (")
            .append(capturedLength).append(" bytes)").toString();
    }

    private static void prefix(final StringBuilder line, final long number, final long relativeNanos) {
        final long magnitude = Math.abs(relativeNanos);
        final String time = String.format(Locale.ROOT, "%s%d.%09d", relativeNanos < 0 ? "-" : "",
            magnitude / NANOS_PER_SECOND, magnitude % NANOS_PER_SECOND);
        line.append(String.format(Locale.ROOT, "%7d  %16s  ", number, time));
    }

    private static String stripEnd(final StringBuilder line) {
        int end = line.length();
        while (end > 0 && line.charAt(end - 1) == ' ') {
            end--;
        }
        line.setLength(end);
        return line.toString();
    }

    private static void pad(final StringBuilder line, final String text, final int width) {
        line.append(text);
        for (int i = text.length(); i < width; i++) {
            line.append(' ');
        }
    }

    private static void markers(final StringBuilder line, final DecodedFrame frame) {
        if (frame.version() == RoceVersion.V1) {
            line.append("  roce-v1");
        }
        if (frame.tver() != 0) {
            line.append("  tver=").append(frame.tver());
        }
        if (frame.has(HeaderKind.VLAN)) {
            line.append("  vlan=").append(frame.eth().vlanId());
        }
        if (frame.isCongestionExperienced()) {
            line.append("  ecn=CE");
        }
        if (frame.bth().fecn()) {
            line.append("  fecn");
        }
        if (frame.bth().becn()) {
            line.append("  becn");
        }
    }

    private static void headers(final StringBuilder line, final DecodedFrame frame) {
        for (final HeaderKind kind : frame.layout() == null ? new HeaderKind[0] : frame.layout()) {
            line.append("  ");
            switch (kind) {
                case PLETH:
                    line.append(String.format(Locale.ROOT, "pleth msn=%d offset=%d rsn=%d%s%s", frame.pleth().msn(),
                        frame.pleth().messageOffset(), frame.pleth().rsn(), frame.pleth().first() ? " first" : "",
                        frame.pleth().last() ? " last" : ""));
                    break;
                case RETH:
                    line.append(String.format(Locale.ROOT, "reth va=0x%016x rkey=0x%08x dmalen=%d",
                        frame.reth().va(), frame.reth().rkey(), frame.reth().dmaLength()));
                    break;
                case AETH:
                    line.append(String.format(Locale.ROOT, "aeth %s msn=%d", frame.aeth().syndrome().name(),
                        frame.aeth().msn()));
                    break;
                case SACKETH:
                    line.append(String.format(Locale.ROOT, "sacketh base=%d bitmap=%016x", frame.sacketh().basePsn(),
                        frame.sacketh().bitmap()));
                    break;
                case ATOMIC_ETH:
                    line.append(String.format(Locale.ROOT, "atomiceth va=0x%016x rkey=0x%08x swap=0x%016x "
                        + "compare=0x%016x", frame.atomicEth().va(), frame.atomicEth().rkey(),
                        frame.atomicEth().swapAdd(), frame.atomicEth().compare()));
                    break;
                case ATOMIC_ACK_ETH:
                    line.append(String.format(Locale.ROOT, "atomicacketh orig=0x%016x",
                        frame.atomicAckEth().original()));
                    break;
                case IMMDT:
                    line.append(String.format(Locale.ROOT, "immdt=0x%08x", frame.immDt().immediate()));
                    break;
                case IETH:
                    line.append(String.format(Locale.ROOT, "ieth rkey=0x%08x", frame.ieth().rkey()));
                    break;
                case DETH:
                    line.append(String.format(Locale.ROOT, "deth qkey=0x%08x srcqp=0x%06x", frame.deth().qkey(),
                        frame.deth().srcQp()));
                    break;
                default:
                    line.append(kind.label());
                    break;
            }
        }
    }
}
