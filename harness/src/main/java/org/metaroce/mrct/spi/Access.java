package org.metaroce.mrct.spi;

import java.util.Locale;

/** Memory region and QP access rights. */
public enum Access {
    LOCAL_WRITE,
    REMOTE_WRITE,
    REMOTE_READ,
    REMOTE_ATOMIC;

    /** The snake_case name used in case files and the control-agent protocol. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The access right with this label or constant name, or null. */
    public static Access byLabel(final String text) {
        for (final Access access : values()) {
            if (access.label().equals(text) || access.name().equals(text)) {
                return access;
            }
        }
        return null;
    }
}
