package org.metaroce.mrct.wire;

/** RoCE encapsulation of a frame. */
public enum RoceVersion {
    /** Not RoCE. */
    NONE,
    /** RoCEv1: EtherType 0x8915 and a GRH. */
    V1,
    /** RoCEv2: IPv4 or IPv6 and UDP destination port 4791. */
    V2
}
