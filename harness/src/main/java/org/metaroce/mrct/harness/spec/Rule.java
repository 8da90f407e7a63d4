package org.metaroce.mrct.harness.spec;

/**
 * One numbered requirement of the specification.
 *
 * @param id {@code MR-<AREA>-<NNN>}
 * @param area the area ({@code ORD})
 * @param number the three-digit number as an int
 * @param level MUST, SHOULD or MAY
 * @param role responder, requester or any
 * @param pics the PICS item the rule depends on, or null when it always applies
 * @param text the rule's paragraph without the ID and the parenthesised level
 * @param section the heading of the section holding it
 * @param line the 1-based line of the rule in the specification file
 */
public record Rule(String id, String area, int number, Level level, Role role, String pics, String text,
                   String section, int line) {

    /** True when the rule applies to a device claiming {@code claimed} PICS items. */
    public boolean appliesTo(final java.util.Set<String> claimed) {
        return pics == null || claimed.contains(pics);
    }

    /** {@code MR-ORD-004 (MUST, responder)}. */
    public String label() {
        return id + " (" + level + ", " + role.label() + (pics != null ? ", if " + pics : "") + ")";
    }
}
