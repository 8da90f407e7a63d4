package org.metaroce.mrct.wire.capture;

/** The capture file formats that {@link CaptureReader} reads and the writers produce. */
public enum CaptureFormat {
    /** Classic pcap (magic 0xA1B2C3D4): seconds and microseconds per record. */
    PCAP_MICRO,
    /** Classic pcap with nanosecond timestamps (magic 0xA1B23C4D): seconds and nanoseconds per record. */
    PCAP_NANO,
    /** pcapng (section header block 0x0A0D0D0A): blocks, several sections and interfaces, per-interface resolution. */
    PCAPNG
}
