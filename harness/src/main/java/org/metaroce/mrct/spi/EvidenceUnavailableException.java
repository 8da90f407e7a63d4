package org.metaroce.mrct.spi;

/**
 * The adapter cannot answer what the harness asked because the evidence it answers from does not hold it: a replayed
 * recording has no such case, or the harness sent a frame or made a control-plane call other than the one recorded.
 * Unlike other {@link AdapterException}s (ERROR) a case during which this is thrown gets the verdict INCONCLUSIVE with
 * this message: the device was not asked, so it is neither passed nor failed.
 */
public class EvidenceUnavailableException extends AdapterException {
    private static final long serialVersionUID = 1L;

    public EvidenceUnavailableException(final String message) {
        super(message);
    }
}
