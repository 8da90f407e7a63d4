package org.metaroce.mrct.wire.capture.internal;

import static org.metaroce.mrct.wire.capture.internal.PcapngLayout.OPTION_CODE_OFFSET;
import static org.metaroce.mrct.wire.capture.internal.PcapngLayout.OPTION_HEADER_LENGTH;
import static org.metaroce.mrct.wire.capture.internal.PcapngLayout.OPTION_LENGTH_OFFSET;
import static org.metaroce.mrct.wire.capture.internal.PcapngLayout.OPTION_VALUE_OFFSET;
import static org.metaroce.mrct.wire.capture.internal.PcapngLayout.OPT_ENDOFOPT;
import static org.metaroce.mrct.wire.capture.internal.PcapngLayout.padded;

import java.nio.ByteBuffer;

/**
 * Walks the options area of one pcapng block, in place; one instance is reused for every block. The walk ends at
 * {@code opt_endofopt}, at the end of the area, or at an option whose value runs past the area, which it reports as
 * {@link #malformed()} for the caller to turn into an error naming the block. Fewer than 4 bytes left at the end
 * (too few for an option header) end the walk quietly, as does padding missing after the last value.
 */
final class OptionCursor {
    private ByteBuffer buffer;
    private boolean bigEndian;
    private int next;
    private int end;
    private int code;
    private int valueIndex;
    private int valueLength;
    private boolean malformed;

    /** Starts a walk over {@code buffer[start, end)}. */
    void reset(final ByteBuffer buffer, final int start, final int end, final boolean bigEndian) {
        this.buffer = buffer;
        this.bigEndian = bigEndian;
        this.next = start;
        this.end = end;
        this.malformed = false;
    }

    /** Moves to the next option; {@code false} at the end of the options or at a malformed one. */
    boolean next() {
        if (end - next < OPTION_HEADER_LENGTH) {
            return false;
        }
        code = Endian.u16(buffer, next + OPTION_CODE_OFFSET, bigEndian);
        valueLength = Endian.u16(buffer, next + OPTION_LENGTH_OFFSET, bigEndian);
        if (code == OPT_ENDOFOPT) {
            return false;
        }
        valueIndex = next + OPTION_VALUE_OFFSET;
        if (valueLength > end - valueIndex) {
            malformed = true;
            return false;
        }
        next = valueIndex + padded(valueLength);
        return true;
    }

    /** The walk stopped at an option longer than the rest of the area; {@link #problem(String)} describes it. */
    boolean malformed() {
        return malformed;
    }

    /** Code of the current option. */
    int code() {
        return code;
    }

    /** Buffer index of the current option's value. */
    int valueIndex() {
        return valueIndex;
    }

    /** Length of the current option's value, without padding. */
    int valueLength() {
        return valueLength;
    }

    /** A malformed-option reason for a block of the given name. */
    String problem(final String blockName) {
        return "option " + code + " of the " + blockName + " has length " + valueLength + " but only "
                + (end - valueIndex) + " bytes remain in the block";
    }
}
