package org.metaroce.mrct.socket.agent;

/**
 * What one agent lets its peers ask for, device-wide; a request beyond a limit is answered with the error
 * {@code limit} and changes nothing.
 *
 * @param maxQps QPs that may exist at once (createQp beyond it is refused)
 * @param maxMrBytes bytes of registered memory that may exist at once
 * @param maxIoBytes bytes one readMemory or writeMemory may move
 * @param maxClients connections served at once (further ones are answered with one {@code limit} error and closed)
 */
public record AgentLimits(int maxQps, long maxMrBytes, int maxIoBytes, int maxClients) {
    /** 65,536 QPs (the scale cases need tens of thousands), 1 GiB of regions, 16 MiB per transfer, 4 clients. */
    public static final AgentLimits DEFAULTS = new AgentLimits(65_536, 1L << 30, 16 << 20, 4);

    public AgentLimits {
        if (maxQps < 1 || maxMrBytes < 1 || maxIoBytes < 1 || maxClients < 1) {
            throw new IllegalArgumentException("agent limits must be positive: " + maxQps + " QPs, " + maxMrBytes
                + " region bytes, " + maxIoBytes + " bytes per transfer, " + maxClients + " clients");
        }
    }

    /** The longest request line accepted: a writeMemory of {@link #maxIoBytes} in base64, plus room for the rest. */
    public int maxLineBytes() {
        return (int) Math.min(Integer.MAX_VALUE - 8, (long) maxIoBytes * 4 / 3 + 65_536);
    }
}
