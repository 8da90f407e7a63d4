package org.metaroce.mrct.harness.engine;

/**
 * Thrown while a case is set up when it would give the device a parameter or QP attribute value that the profile's
 * declared parameters do not allow (Table B-1 ranges, such as a pmtu above max_pmtu or an ack_req_interval above
 * send_window): the device need not accept it (MR-CONF-002 asks only for values allowed under its declared
 * parameters), so the case or its table row is NOT_APPLICABLE to that profile, with this exception's message as the
 * reason.
 */
final class OutsideProfile extends RuntimeException {
    private static final long serialVersionUID = 1L;

    OutsideProfile(final String message) {
        super(message, null, false, false);
    }
}
