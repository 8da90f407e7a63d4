package org.metaroce.mrct.spi;

/**
 * The device's control plane refused a call as the specification requires it to (MR-QP-009: an attribute out of
 * range, a transition Table 3-2 does not allow, a right the PICS does not grant). Unlike {@link AdapterException} this
 * is an answer of the device, which cases may expect.
 */
public class RejectedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public RejectedException(final String message) {
        super(message);
    }
}
