package org.metaroce.mrct.spi;

import java.util.List;
import java.util.Set;

/**
 * A kind of adapter, found at run time through {@link java.util.ServiceLoader} the way JUnit finds its test engines:
 * a module that implements one lists the class in {@code META-INF/services/org.metaroce.mrct.spi.AdapterProvider}.
 * The provider says what it is called ({@code mrct run --adapter NAME}), which options it takes and what kind of
 * device it reaches ({@link Trait}); a front end (the {@code mrct} command, a vendor's own build) offers its options,
 * hands it their values and decides from its traits, never from its name.
 *
 * <p>Options are plain declarations ({@link AdapterOption}) with string values ({@link AdapterOptions}), so that
 * neither this SPI nor an adapter depends on a command-line library.
 */
public interface AdapterProvider {
    /** What a provider's devices are, for the decisions a front end makes before and around a run. */
    enum Trait {
        /** The device runs fault profiles ({@code mrct run --fault NAME}, {@link AdapterRequest#fault()}). */
        FAULTS,
        /**
         * The device answers in real time: a run uses the timing defaults and tolerances of a real device, and
         * warms the harness's code up before it opens the device.
         */
        REAL_TIME,
        /**
         * Each {@link AdapterSetup#open} gives a fresh, independent device that answers the same case the same way
         * every time (virtual time), so that a case can be run again alone: failing generated cases are shrunk
         * against it.
         */
        REPEATABLE
    }

    /** The name a user gives ({@code reference}, {@code socket}, {@code replay}); lower case, unique. */
    String name();

    /** What it reaches, in a few words for the usage text ({@code the embedded reference NIC, default}). */
    String description();

    /** Where it comes in lists (usage text, error messages): lower first; ties by name. */
    default int position() {
        return 100;
    }

    /** The options it takes, in the order the usage text lists them; each name unique among all providers. */
    default List<AdapterOption> options() {
        return List.of();
    }

    /** What kind of device it reaches. */
    default Set<Trait> traits() {
        return Set.of();
    }

    /**
     * Checks its options and prepares the adapter; nothing is opened that cannot be closed by closing the adapter
     * {@link AdapterSetup#open} returns (a recording may be read ahead: its seed decides the run's generated cases).
     *
     * @throws AdapterSetupException an option is missing or wrong, or what it names cannot be used; the message
     *     says which, in one line
     */
    AdapterSetup configure(AdapterRequest request) throws AdapterSetupException;
}
