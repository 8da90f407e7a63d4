package org.metaroce.mrct.replay;

import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.metaroce.mrct.harness.result.RunInfo;
import org.metaroce.mrct.spi.Capability;
import org.metaroce.mrct.spi.Endpoints;

/**
 * What an {@code evidence.pcapng} says about the run that wrote it: its section header comment, and the cases its
 * packets hold. Values the file does not carry (files written before the replay adapter existed) are null, or the
 * fallback named in {@link #notes()}.
 *
 * @param file the recording
 * @param start when the recorded run started, or null
 * @param seed the run seed
 * @param specVersion the specification version of the run
 * @param adapter the adapter the run used ({@code reference}, {@code socket}, ...)
 * @param vendor the device's vendor as the run reported it
 * @param model the device's model
 * @param firmware the device's firmware
 * @param profile the DUT profile (file name), or null
 * @param profileHash the SHA-256 of the profile's bytes (hex), or null when the recording does not say
 * @param strict whether SHOULD failures gated the run, or null when the recording does not say
 * @param fault the reference NIC's fault profile the run used, or null
 * @param capabilities the recorded adapter's capabilities (recorded, or the fallback in {@link #notes()})
 * @param endpoints the link addresses of the run (recorded, or taken from the harness's frames)
 * @param timing the run's expectation timeout and timing tolerances, or null when the recording does not say
 * @param cases the IDs of the cases the file holds, in run order
 * @param notes what the replay had to assume or leave out, one sentence each (old file, damaged tail, ...)
 */
public record RecordedRun(Path file, Instant start, long seed, String specVersion, String adapter, String vendor,
                          String model, String firmware, String profile, String profileHash, Boolean strict,
                          String fault, Set<Capability> capabilities, Endpoints endpoints, RunInfo.Timing timing,
                          List<String> cases,
                          List<String> notes) {
    public RecordedRun {
        capabilities = Set.copyOf(capabilities);
        cases = List.copyOf(cases);
        notes = List.copyOf(notes);
    }
}
