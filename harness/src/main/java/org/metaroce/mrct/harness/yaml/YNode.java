package org.metaroce.mrct.harness.yaml;

/**
 * A YAML node that remembers where it was written. Case files, DUT profiles and baselines are read into this tree
 * first so that every problem found later can name {@code file:line}; Jackson's data binding alone loses positions.
 */
public sealed interface YNode permits YMap, YList, YScalar {
    /** The file the node came from. */
    String file();

    /** 1-based line. */
    int line();

    /** {@code file:line}. */
    default String where() {
        return file() + ":" + line();
    }

    /** What kind of node this is, for messages ("a map", "a list", "a string"). */
    String kind();
}
