package org.metaroce.mrct.oracle;

/**
 * Where the judged frames were seen and what is known of the link, the same for every frame of a run or capture.
 *
 * @param senderMac the sending port's own MAC address (MR-WIRE-001: eth.src), or null when unknown
 * @param peerMac   the MAC address the sender's QPs are configured to send to (MR-MP-007: eth.dst), or null when
 *                  unknown
 * @param fcsLength how many FCS bytes each frame keeps after its ICRC: 0 for none, -1 when the source does not say
 *                  (then 4 trailing bytes are taken for an FCS)
 * @param atSender  true when the frames were taken at the device that sent them, so no network can have changed a
 *                  field after it sent them (a CE mark is then the device's own: MR-CC-002)
 * @param metaroceSender true when the sender is known to be a MetaRoCE device (it has a profile), so its TVer 0 QPs
 *                  are bound by the rules of section 14 too (MR-CC-001); false for a capture of unknown devices, whose
 *                  TVer 0 traffic may be plain RoCEv2, which section 14 does not bind
 */
public record Vantage(Long senderMac, Long peerMac, int fcsLength, boolean atSender, boolean metaroceSender) {
    /** The live engine: it knows both MAC addresses and receives the device's frames straight from it. */
    public static Vantage live(final long deviceMac, final long harnessMac) {
        return new Vantage(deviceMac, harnessMac, 0, true, true);
    }

    /**
     * A capture: no MAC address known; {@code fcsLength} as the file says (-1 when it does not); {@code metaroceSender}
     * when a profile or the evidence of a run says the sender is a MetaRoCE device.
     */
    public static Vantage capture(final int fcsLength, final boolean atSender, final boolean metaroceSender) {
        return new Vantage(null, null, fcsLength, atSender, metaroceSender);
    }
}
