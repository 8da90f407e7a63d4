package org.metaroce.mrct.harness.result;

/**
 * One field that did not match, in script space (PSN, MSN and QPN relative to the case's start) where that applies.
 *
 * @param field dotted field name ({@code sacketh.bitmap})
 * @param expected what the case expected, as text ({@code 5 (0x5)}, {@code any of [1, 2]}, {@code 0..7})
 * @param actual what the frame carried, decimal and hex
 */
public record FieldDiff(String field, String expected, String actual) {
    @Override
    public String toString() {
        return field + ": expected " + expected + ", actual " + actual;
    }
}
