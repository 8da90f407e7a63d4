package org.metaroce.mrct.spi;

/**
 * Creates the harness's peer for requester cases, with the harness's addresses as its own (see {@link Peer}). A run
 * without a factory runs requester cases as NOT_APPLICABLE when they need a peer.
 */
@FunctionalInterface
public interface PeerFactory {
    /**
     * A fresh peer whose port has the harness's addresses of {@code endpoints}, with the given declared parameters
     * (Appendix B names) and PICS items.
     */
    Peer create(Endpoints endpoints, java.util.Map<String, Object> parameters, java.util.Set<String> pics);
}
