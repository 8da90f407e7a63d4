package org.metaroce.mrct.analyzer.internal;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.metaroce.mrct.harness.profile.DeviceProfile;
import org.metaroce.mrct.harness.result.CaseResult;
import org.metaroce.mrct.harness.spec.Specification;
import org.metaroce.mrct.wire.capture.CaptureFormatException;
import org.metaroce.mrct.wire.capture.CaptureReader;

/**
 * One analysis: the options shared by every capture, and the analysis of each file into report cases. The public
 * entry point is {@code org.metaroce.mrct.analyzer.CaptureAnalyzer}.
 */
public final class Analysis {
    /** The transport version the checks assume. */
    public enum Mode {
        /** From each connection's frames (bth.tver): TVer 0 by the legacy rules, TVer 1 by MetaRoCE v1. */
        AUTO,
        /** Every connection is TVer 0 (plain RoCEv2). */
        LEGACY,
        /** Every connection is TVer 1 (MetaRoCE v1). */
        METAROCE
    }

    /**
     * What one file gave.
     *
     * @param name        the capture as given
     * @param cases       the report cases, in order
     * @param violations  one line per failing case: its ID and reason
     * @param frames      records read
     * @param roceFrames  RoCE frames among them
     * @param connections connections found
     * @param cutFrames   frames cut short by the capture's snap length
     * @param otherLinkFrames frames of a link type not analysed (neither Ethernet nor Linux cooked)
     * @param evidence    true for an mrct evidence file
     * @param elapsedNs   time spent reading and analysing
     * @param problem     why the file could not be read to its end ({@code byte N (record R): reason}), or null
     */
    public record FileReport(String name, List<CaseResult> cases, List<String> violations, long frames,
                             long roceFrames, int connections, long cutFrames, long otherLinkFrames, boolean evidence,
                             long elapsedNs, String problem) {
        public FileReport {
            cases = List.copyOf(cases);
            violations = List.copyOf(violations);
        }
    }

    private final Specification spec;
    private final Parameters parameters;
    private final Mode mode;
    private final boolean complete;

    /**
     * @param spec     the specification (rule levels and roles, parameter ranges)
     * @param profile  the device profile, or null for the defaults of Appendix B
     * @param mode     the transport version the checks assume
     * @param complete the captures hold every frame both ends sent, once, from each connection's start
     */
    public Analysis(final Specification spec, final DeviceProfile profile, final Mode mode, final boolean complete) {
        this.spec = spec;
        this.parameters = new Parameters(spec, profile);
        this.mode = mode;
        this.complete = complete;
    }

    /** The parameters in effect. */
    public Parameters parameters() {
        return parameters;
    }

    /**
     * Analyses one file. A file that cannot be read to its end is analysed up to the damage and named in
     * {@link FileReport#problem()}; nothing is thrown for bad input.
     *
     * @param path    the capture
     * @param name    the capture as given (reports name it so)
     * @param prefix  prepended to every case ID ({@code ""}, or the file name and a slash when several are analysed)
     */
    public FileReport analyze(final Path path, final String name, final String prefix) {
        final Session.Mode sessionMode = Session.Mode.valueOf(mode.name());
        final Session session = new Session(path, name, Session.judge(complete, false, parameters), parameters,
            sessionMode);
        String problem = null;
        if (Files.isDirectory(path)) {
            problem = "is a directory";
        } else {
            try (CaptureReader reader = CaptureReader.open(path)) {
                session.run(reader);
            } catch (CaptureFormatException e) {
                problem = "byte " + e.byteOffset() + " (record " + e.recordNumber() + "): " + e.reason();
            } catch (NoSuchFileException e) {
                problem = "no such file";
            } catch (AccessDeniedException e) {
                problem = "permission denied";
            } catch (IOException e) {
                problem = e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
            }
        }
        final List<Connection> connections = session.finish();
        final Results results = new Results(spec, parameters, session.origin());
        final List<CaseResult> cases = new ArrayList<>();
        final List<String> violations = new ArrayList<>();
        String currentCase = null;
        int number = 0;
        final List<Connection> ordered = new ArrayList<>(connections);
        if (!session.evidence()) {
            ordered.sort(Comparator.comparingLong(c -> c.firstFrame));
        }
        for (final Connection c : ordered) {
            if (c.evidenceCase != null && !c.evidenceCase.equals(currentCase)) {
                currentCase = c.evidenceCase;
                number = 0;
            }
            c.id = "C" + ++number;
            final String casePrefix = prefix + (c.evidenceCase != null ? c.evidenceCase + "/" : "");
            cases.addAll(results.of(c, casePrefix, violations));
        }
        cases.addAll(session.outOfScope.cases(prefix, name));
        if (problem != null && connections.isEmpty() && session.frames == 0) {
            return new FileReport(name, cases, violations, 0, 0, 0, 0, 0, false, session.elapsedNs, problem);
        }
        return new FileReport(name, cases, violations, session.frames, session.roceFrames, connections.size(),
            session.cutFrames, session.otherLinkFrames, session.evidence(), session.elapsedNs, problem);
    }
}
