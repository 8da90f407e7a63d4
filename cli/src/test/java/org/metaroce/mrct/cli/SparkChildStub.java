package org.metaroce.mrct.cli;

import java.util.Arrays;

/** Stands in for the Spark application in {@link SparkDelegateTest}: prints its arguments, exits with status 1. */
public final class SparkChildStub {
    private SparkChildStub() {
    }

    public static void main(final String[] args) {
        System.out.println("child args: " + String.join(" ", Arrays.asList(args)));
        System.err.println("child stderr line");
        System.exit(1);
    }
}
