package org.metaroce.mrct.wire;

/**
 * A decode failure as a value: the reason, the field that broke and the byte offset (from the start of the frame)
 * where it did, with a sentence for people.
 *
 * @param error the reason
 * @param field the dotted field or header name ({@code ip.total_length}, {@code reth})
 * @param offset byte offset from the first byte of the frame
 * @param detail a sentence with the numbers involved
 */
public record DecodeFailure(DecodeError error, String field, int offset, String detail) {
    @Override
    public String toString() {
        return error + " at byte " + offset + " (" + field + "): " + detail;
    }
}
