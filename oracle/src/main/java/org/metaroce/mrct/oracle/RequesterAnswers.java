package org.metaroce.mrct.oracle;

import org.metaroce.mrct.wire.DecodedFrame;
import org.metaroce.mrct.wire.HeaderKind;
import org.metaroce.mrct.wire.OpKind;
import org.metaroce.mrct.wire.Opcode;
import org.metaroce.mrct.wire.Psn;

/**
 * Table 11-4 as a requester applies it to the answers it receives: which it acts on and which it drops silently
 * (MR-ROB-009). One place for both judges: the live engine learns from the answers its device takes, {@code mrct
 * analyze} from those the requester in the capture would take, and neither counts a CE mark on a dropped response as a
 * congestion indication (section 14.2, spec v1.1). What only a live run knows (the posted work request a READ
 * RESPONSE must match in opcode, length, MSN and offset) the caller checks on top.
 */
public final class RequesterAnswers {
    /**
     * What the requester does with one answer.
     *
     * @param taken  true when it acts on it
     * @param reason why it drops it silently, or "" when taken
     */
    public record Fate(boolean taken, String reason) {
        /** The answer is acted on. */
        public static final Fate TAKEN = new Fate(true, "");

        static Fate dropped(final String reason) {
            return new Fate(false, reason);
        }
    }

    private RequesterAnswers() {
    }

    /**
     * An ACKNOWLEDGE: dropped when its syndrome is reserved (bit 7 set, 0x40-0x5F, a NAK code above 0x63, NAK 0x60 on a
     * TVer 1 QP), its cumulative point lies after the next PSN, an ACK's bth.psn + 1 is not its sacketh.base, or a NAK
     * or RNR NAK names a PSN that is not outstanding.
     */
    public static Fate acknowledge(final DecodedFrame f, final RequesterState state) {
        final int syndrome = f.aeth().syndromeValue();
        final int type = syndrome & 0x60;
        if ((syndrome & 0x80) != 0 || type == 0x40) {
            return Fate.dropped("reserved syndrome " + hex(syndrome));
        }
        final boolean nak = type == 0x60;
        if (nak && (syndrome & 0x1F) > 3) {
            return Fate.dropped("reserved NAK code " + hex(syndrome));
        }
        if (syndrome == 0x60 && !state.legacy()) {
            return Fate.dropped("NAK 0x60 on a TVer 1 QP");
        }
        final int psn = f.bth().psn();
        final boolean sack = f.has(HeaderKind.SACKETH);
        final int point = sack ? f.sacketh().basePsn() : Psn.add(psn, 1);
        if ((sack || type == 0) && Psn.isAfter(point, state.nextPsn())) {
            return Fate.dropped("cumulative point " + point + " after the next PSN " + state.nextPsn());
        }
        if (type == 0) {
            return Psn.add(psn, 1) == point ? Fate.TAKEN
                : Fate.dropped("bth.psn + 1 (" + Psn.add(psn, 1) + ") is not sacketh.base " + point);
        }
        return state.outstanding(psn) ? Fate.TAKEN
            : Fate.dropped((nak ? "NAK" : "RNR NAK") + " for PSN " + psn + ", which is not outstanding");
    }

    /**
     * A READ RESPONSE: dropped when its PSN lies in the span of no READ the requester sent (on another request's PSN,
     * or beyond the read's last packet as the requester segments it). A duplicate response (a PSN delivered already),
     * or a TVer 0 response after a gap, lies in a span: taken as far as this table goes.
     */
    public static Fate readResponse(final DecodedFrame f, final RequesterState state) {
        final int psn = f.bth().psn();
        return state.inReadSpan(psn) ? Fate.TAKEN
            : Fate.dropped("PSN " + psn + " lies in the span of no READ sent");
    }

    /** Either of the above, by the answer's opcode; an ATOMIC ACKNOWLEDGE is taken when its PSN is outstanding. */
    public static Fate of(final DecodedFrame f, final RequesterState state) {
        final Opcode opcode = f.opcode();
        if (opcode == Opcode.ACKNOWLEDGE) {
            return acknowledge(f, state);
        }
        if (opcode.kind() == OpKind.RDMA_READ_RESPONSE) {
            return readResponse(f, state);
        }
        return state.outstanding(f.bth().psn()) ? Fate.TAKEN
            : Fate.dropped(opcode.name() + " for PSN " + f.bth().psn() + ", which is not outstanding");
    }

    private static String hex(final int value) {
        return String.format("0x%02X", value);
    }
}
