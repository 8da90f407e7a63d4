package org.metaroce.mrct.harness.cases;

/**
 * The values a numeric field of a case may take, checked when the case loads for every value that is a constant
 * (a literal or an expression without names). The limits on sizes, counts and durations are the harness's: it builds
 * whole messages and region images in memory and runs on a 64-bit nanosecond clock.
 *
 * @param what what the value is, for messages ("a PSN")
 * @param min smallest value
 * @param max largest value
 * @param limit whether {@code max} is a limit of the harness rather than of the field (said so in messages)
 */
record Domain(String what, long min, long max, boolean limit) {
    /** Largest message, region, payload or receive buffer the harness builds (64 MiB). */
    static final long MAX_BYTES = 64L << 20;
    /** Most QPs one connection entry creates. */
    static final long MAX_QPS = 65_536;
    /** Most work requests, receive WQEs or loop iterations one step makes. */
    static final long MAX_REPEAT = 1_000_000;
    /** Longest duration a step waits or a network rule spans (60 s). */
    static final long MAX_NANOS = 60_000_000_000L;

    static final Domain ANY = new Domain("a number", Long.MIN_VALUE, Long.MAX_VALUE, false);
    /** An absolute 24-bit PSN. */
    static final Domain PSN = new Domain("a PSN", 0, 0xFF_FFFF, false);
    /** A PSN in script space: relative to the initial PSN, so one 24-bit space either way. */
    static final Domain RELATIVE_PSN = new Domain("a PSN relative to the initial PSN", -0xFF_FFFF, 0xFF_FFFF, false);
    /** A 24-bit sequence number (MSN, RSN). */
    static final Domain SEQUENCE = new Domain("a 24-bit number", 0, 0xFF_FFFF, false);
    static final Domain VLAN = new Domain("a VLAN ID", 0, 4095, false);
    static final Domain U8 = new Domain("an 8-bit number", 0, 0xFF, false);
    static final Domain U16 = new Domain("a 16-bit number", 0, 0xFFFF, false);
    static final Domain U32 = new Domain("a 32-bit number", 0, 0xFFFF_FFFFL, false);
    static final Domain INT32 = new Domain("a 32-bit signed number", Integer.MIN_VALUE, Integer.MAX_VALUE, false);
    static final Domain ECN = new Domain("an ECN codepoint", 0, 3, false);
    static final Domain BYTES = new Domain("a length in bytes", 0, MAX_BYTES, true);
    static final Domain OFFSET = new Domain("an offset in bytes", 0, MAX_BYTES, true);
    static final Domain DURATION = new Domain("a duration", 0, MAX_NANOS, true);
    /** A point in time since the case started. */
    static final Domain TIME = new Domain("a time since the case started", 0, MAX_NANOS, true);
    static final Domain QPS = new Domain("a QP count", 1, MAX_QPS, true);
    static final Domain COUNT = new Domain("a count", 0, MAX_REPEAT, true);
    static final Domain POSITIVE_COUNT = new Domain("a count", 1, MAX_REPEAT, true);
    static final Domain LOOP_BOUND = new Domain("a loop bound", -MAX_REPEAT, MAX_REPEAT, true);
    static final Domain INDEX = new Domain("a packet index", 0, MAX_BYTES, true);
    static final Domain MBPS = new Domain("a rate in Mb/s", 1, 1_600_000, false);
    static final Domain PERCENT = new Domain("a percentage", 0, 100, false);

    /** A field of {@code width} bits, unsigned. */
    static Domain bits(final String what, final int width) {
        return width >= 64 ? ANY : new Domain(what, 0, (1L << width) - 1, false);
    }

    /** Null when {@code value} is in the domain, else why not. */
    String check(final long value) {
        if (value >= min && value <= max) {
            return null;
        }
        return value + " is outside " + what + " (" + format(min) + " to " + format(max)
            + (limit ? ", the harness's limit" : "") + ")";
    }

    private static String format(final long value) {
        return value >= 0x10000 && value != MAX_BYTES && value != MAX_NANOS && value != MAX_REPEAT
            && value != MAX_QPS ? "0x" + Long.toHexString(value) : Long.toString(value);
    }
}
