package org.metaroce.mrct.cli;

import picocli.CommandLine.Option;

/**
 * {@code --fault NAME} of {@code mrct run} and {@code mrct serve}: a fault profile of the reference NIC
 * ({@code mrct faults}); the device checks the name.
 */
final class FaultOption {
    @Option(names = "--fault", paramLabel = "NAME", description = "turn on a fault profile of the reference NIC "
        + "(see mrct faults)")
    String name;
}
