package org.metaroce.mrct.spi;

/**
 * An adapter cannot be set up as asked: an option is missing, malformed or does not apply, or what an option names
 * (a recording, a fault profile) cannot be used. The message says which in one line, for the user; nothing was
 * opened.
 */
public class AdapterSetupException extends Exception {
    private static final long serialVersionUID = 1L;

    public AdapterSetupException(final String message) {
        super(message);
    }

    public AdapterSetupException(final String message, final Throwable cause) {
        super(message, cause);
    }
}
