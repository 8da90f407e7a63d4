package org.metaroce.mrct.spark.internal;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

/**
 * What an executor found in one capture, on its way to the driver: the analyzer's records as JSON
 * ({@link CaseCodec}).
 *
 * @param index      the capture's place ({@link Capture#index()})
 * @param file       the capture's {@code FileOutcome}
 * @param cases      its cases in the analyzer's order, case IDs without the multi-capture prefix
 * @param violations one line per failing check, {@code ID: reason}, without the prefix
 */
public record CaptureFindings(int index, String file, ArrayList<String> cases, ArrayList<String> violations)
    implements Serializable {
    private static final long serialVersionUID = 1L;

    public CaptureFindings(final int index, final String file, final List<String> cases,
                           final List<String> violations) {
        this(index, file, new ArrayList<>(cases), new ArrayList<>(violations));
    }
}
