package org.metaroce.mrct.harness.cases;

import java.util.Locale;

/** The IP version a connection (or one frame) uses. */
public enum IpVersion {
    IPV4,
    IPV6;

    /** The name case files use ({@code ipv4}). */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The version with this label, or null. */
    public static IpVersion byLabel(final String text) {
        for (final IpVersion version : values()) {
            if (version.label().equals(text)) {
                return version;
            }
        }
        return null;
    }
}
