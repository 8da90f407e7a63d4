package org.metaroce.mrct.harness.cases;

/**
 * Bytes taken from a pattern: {@code length} bytes starting at {@code offset} of {@code pattern}.
 *
 * @param pattern the pattern
 * @param offset where in the pattern to start (null: 0, or the packet's offset in its message)
 * @param length how many bytes (null: as many as the context calls for)
 */
public record PayloadSpec(Pattern pattern, Expr offset, Expr length) {
}
