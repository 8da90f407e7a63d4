package org.metaroce.mrct.spi;

/**
 * The adapter or the path to the device failed (agent gone, interface down, device not answering). A case during
 * which this is thrown gets the verdict ERROR with this message, never FAIL: it says nothing about conformance.
 */
public class AdapterException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public AdapterException(final String message) {
        super(message);
    }

    public AdapterException(final String message, final Throwable cause) {
        super(message, cause);
    }
}
