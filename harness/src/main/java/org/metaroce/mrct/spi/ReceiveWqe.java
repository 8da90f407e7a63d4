package org.metaroce.mrct.spi;

/**
 * A receive work request: one buffer in registered memory.
 *
 * @param wrId the caller's identifier, returned in the completion
 * @param va address of the buffer
 * @param length length of the buffer
 * @param lkey local key of the region holding it
 */
public record ReceiveWqe(long wrId, long va, int length, int lkey) {
}
