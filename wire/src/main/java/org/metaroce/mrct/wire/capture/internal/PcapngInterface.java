package org.metaroce.mrct.wire.capture.internal;

/**
 * One interface description block of the current pcapng section: what its packets' accessors report.
 *
 * @param linkType    link-layer header type
 * @param snapLength  snapshot length, 0 for none
 * @param scale       timestamp units, from {@code if_tsresol}
 * @param offsetNanos {@code if_tsoffset} in nanoseconds, added to every timestamp
 * @param name        {@code if_name}, or {@code null}
 * @param fcsLength   {@code if_fcslen} in bytes, or -1 when absent
 */
record PcapngInterface(int linkType, int snapLength, TimestampScale scale, long offsetNanos, String name,
        int fcsLength) {
}
