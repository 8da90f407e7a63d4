package org.metaroce.mrct.spark.internal;

import java.io.Serializable;

/**
 * One capture of the job.
 *
 * @param index its place among the captures, as the user listed them (directories and globs sorted by path)
 * @param name  how the reports name it: the argument as given for a file named on the command line, the path found
 *              for a file a directory or glob expanded to
 * @param uri   the fully qualified Hadoop path ({@code file:/...}, {@code hdfs://...}, {@code s3a://...})
 * @param bytes its size when listed, or -1 when it could not be listed (the executor then reports why)
 */
public record Capture(int index, String name, String uri, long bytes) implements Serializable {
    private static final long serialVersionUID = 1L;
}
