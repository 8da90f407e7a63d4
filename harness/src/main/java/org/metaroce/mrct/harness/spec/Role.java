package org.metaroce.mrct.harness.spec;

import java.util.Locale;

/** Which side of a connection a rule binds. */
public enum Role {
    /** The device receiving requests. */
    RESPONDER,
    /** The device sending requests. */
    REQUESTER,
    /** Every frame a device sends or receives, whatever its role. */
    ANY;

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Role byLabel(final String text) {
        for (final Role role : values()) {
            if (role.label().equals(text)) {
                return role;
            }
        }
        return null;
    }
}
