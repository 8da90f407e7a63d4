package org.metaroce.mrct.analyzer.internal;

/**
 * What a finding rests on besides the frames in hand, which decides whether it is a violation (FAIL) or only makes
 * its check inconclusive. A capture is not the device: it may start after the connection did, miss frames, hold a
 * frame twice, show sprayed frames in another order than they were sent, and it does not say which parameters the
 * device declared. A finding that one of those could explain is reported as a violation only when the analysis was
 * told (or knows, for mrct evidence files) that it cannot be the explanation.
 */
enum Basis {
    /** The frames in hand break the rule whatever the capture missed: always a violation. */
    DEFINITE,
    /** A frame missing from the capture (capture drop, or lost before the capture point) could explain it. */
    CAPTURE_GAP,
    /** The connection may have started before the capture did. */
    CAPTURE_START,
    /** The frame may be a second copy of one frame (captured on both hosts, or on several interfaces). */
    CAPTURE_COPY,
    /** The sender sprayed its frames over several paths, so the capture order may differ from the order sent. */
    NETWORK_ORDER,
    /** It holds with the parameter values of Appendix B, but the device may declare others (no profile given). */
    PARAMETER,
    /** It depends on state the capture does not show (a QP's DCQCN alpha): never a violation. */
    UNKNOWN_STATE
}
