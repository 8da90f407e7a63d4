package org.metaroce.mrct.wire;

/** The transport service selected by BTH.OpCode bits 7..5 (RoCEv2; IBTA opcode space). */
public enum Transport {
    /** Reliable connected, 0x00-0x1F: the only service MetaRoCE v1 defines. */
    RC,
    /** Unreliable connected, 0x20-0x3F. */
    UC,
    /** Reliable datagram, 0x40-0x5F (not supported; decoded as unknown opcodes). */
    RD,
    /** Unreliable datagram, 0x60-0x7F. */
    UD,
    /** Congestion notification, 0x80-0x9F (0x81 is the CNP). */
    CNP,
    /** Extended reliable connected, 0xA0-0xBF (not supported). */
    XRC,
    /** Manufacturer specific, 0xC0-0xFF. */
    MANUFACTURER;

    /** The transport of an opcode byte. */
    public static Transport of(final int opcode) {
        switch ((opcode >>> 5) & 0x7) {
            case 0:
                return RC;
            case 1:
                return UC;
            case 2:
                return RD;
            case 3:
                return UD;
            case 4:
                return CNP;
            case 5:
                return XRC;
            default:
                return MANUFACTURER;
        }
    }
}
