package org.metaroce.mrct.spark;

import java.net.URI;
import org.apache.hadoop.fs.RawLocalFileSystem;

/**
 * The local disk under another scheme ({@code mrcttest:///path}): a Hadoop file system that is not {@code file:}, so
 * that the tests take the path a cluster's captures take (listed through Hadoop, copied by the executor to its disk).
 */
public final class OtherSchemeFileSystem extends RawLocalFileSystem {
    /** The scheme. */
    public static final String SCHEME = "mrcttest";

    @Override
    public URI getUri() {
        return URI.create(SCHEME + ":///");
    }

    @Override
    public String getScheme() {
        return SCHEME;
    }
}
