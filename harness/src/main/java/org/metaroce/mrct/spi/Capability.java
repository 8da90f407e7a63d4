package org.metaroce.mrct.spi;

import java.util.Locale;

/**
 * What an adapter can do beyond sending and receiving frames. A case declares the capabilities it needs; run against
 * an adapter that lacks one, the case is NOT_APPLICABLE with that reason, never a failure.
 */
public enum Capability {
    /** The adapter's clock is virtual: the harness advances it, timing is exact and nothing is flaky. */
    VIRTUAL_TIME,
    /** Device memory can be read back through the control plane. */
    MEMORY_READBACK,
    /** Device memory can be written through the control plane. */
    MEMORY_WRITE,
    /** Drop and event counters (MetaRoCE v1 Appendix C) can be read. */
    COUNTERS,
    /** Completions can be polled. */
    COMPLETIONS,
    /** Work requests can be posted on the device's send queue (the device as requester). */
    REQUESTER_CONTROL,
    /** Any byte sequence can be sent, malformed ones included (bad ICRC, bad lengths, bad headers). */
    RAW_FRAMES,
    /** The ECN field of frames received from the device is visible. */
    ECN_READ,
    /** Frames can be sent with any ECN codepoint, CE included. */
    ECN_WRITE,
    /** Ethernet addresses, VLAN tags and IP header fields of sent frames are under the harness's control. */
    L2_CONTROL,
    /** The device can be reached over IPv6. */
    IPV6,
    /** The device accepts tens of thousands of QPs (scale cases). */
    SCALE_QPS;

    /** The kebab-case name used in case files and reports ({@code memory-readback}). */
    public String label() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** The capability with this kebab-case or constant name, or null. */
    public static Capability byLabel(final String text) {
        for (final Capability capability : values()) {
            if (capability.label().equals(text) || capability.name().equals(text)) {
                return capability;
            }
        }
        return null;
    }
}
