package org.metaroce.mrct.harness.result;

/** Which way a frame went. */
public enum Direction {
    /** From the harness to the device under test. */
    TO_DUT,
    /** From the device under test to the harness. */
    FROM_DUT
}
