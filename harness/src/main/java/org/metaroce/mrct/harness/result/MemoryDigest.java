package org.metaroce.mrct.harness.result;

import com.fasterxml.jackson.databind.JsonNode;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * How {@code evidence.pcapng} records memory contents larger than {@link #INLINE_MAX_BYTES} (reports/README.md): as a
 * digest, {@code {"length":N,"sha256":"<64 hex digits>","head":"<hex of the first 32 bytes>"}}, so that no control
 * record approaches the 256 KiB that Wireshark reads in one packet.
 *
 * <p>What a digest loses, and why replay stays exact: the data of a {@code writeMemory} call comes from the harness,
 * which a replay runs again from the same seed; the replay compares the digest of the data it is given with the
 * recorded one ({@link #matches}), which tells the same calls apart as comparing the bytes would. The answer of a
 * {@code readMemory} call comes from the device and a replay must hand it back whole, so its bytes follow the record
 * in packets of their own (link type 148, at most {@link #PART_BYTES} each) and the record's digest checks them.
 */
public final class MemoryDigest {
    /** Memory of at most this many bytes is recorded inline, as hex. */
    public static final int INLINE_MAX_BYTES = 256;
    /** Bytes of the excerpt ({@code head}) a digest shows. */
    public static final int HEAD_BYTES = 32;
    /** Largest number of memory bytes (or bytes of a split record) in one evidence packet. */
    public static final int PART_BYTES = 128 * 1024;

    private MemoryDigest() {
    }

    /** Whether memory of {@code length} bytes is recorded as a digest. */
    public static boolean digested(final long length) {
        return length > INLINE_MAX_BYTES;
    }

    /** The digest of {@code bytes}: {@code length}, {@code sha256}, {@code head}, in that order. */
    public static Map<String, Object> of(final byte[] bytes) {
        final Map<String, Object> digest = new LinkedHashMap<>();
        digest.put("length", bytes.length);
        digest.put("sha256", sha256(bytes));
        digest.put("head", HexFormat.of().formatHex(Arrays.copyOf(bytes, Math.min(bytes.length, HEAD_BYTES))));
        return digest;
    }

    /** True when {@code node} has the shape of a digest (an object with {@code sha256} and {@code length}). */
    public static boolean isDigest(final JsonNode node) {
        return node != null && node.isObject() && node.path("sha256").isTextual()
            && node.path("length").canConvertToInt();
    }

    /** True when {@code digest} (see {@link #isDigest}) is the digest of {@code bytes}. */
    public static boolean matches(final JsonNode digest, final byte[] bytes) {
        return isDigest(digest) && digest.get("length").asLong() == bytes.length
            && digest.get("sha256").asText().equalsIgnoreCase(sha256(bytes));
    }

    /** SHA-256 of {@code bytes} as 64 lower-case hex digits. */
    public static String sha256(final byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }
}
