package org.metaroce.mrct.harness.spec;

/** RFC 2119 requirement levels. MUST NOT is a MUST whose text says MUST NOT. */
public enum Level {
    MUST,
    SHOULD,
    MAY
}
