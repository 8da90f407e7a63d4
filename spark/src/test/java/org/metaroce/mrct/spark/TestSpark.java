package org.metaroce.mrct.spark;

import org.apache.spark.sql.SparkSession;

/**
 * The one Spark session of the module's tests (local[2], UI off, loopback only), started by the first test that
 * needs it and stopped when the test JVM exits: starting Spark costs more than most tests.
 */
final class TestSpark {
    private static SparkSession session;

    private TestSpark() {
    }

    static synchronized SparkSession session() {
        if (session == null) {
            session = SparkSession.builder().master("local[2]").appName("mrct-spark-test")
                .config("spark.ui.enabled", "false")
                .config("spark.ui.showConsoleProgress", "false")
                .config("spark.driver.host", "127.0.0.1")
                .config("spark.driver.bindAddress", "127.0.0.1")
                .config("spark.sql.shuffle.partitions", "2")
                .config("spark.hadoop.fs." + OtherSchemeFileSystem.SCHEME + ".impl",
                    OtherSchemeFileSystem.class.getName())
                .config("spark.hadoop.fs." + OtherSchemeFileSystem.SCHEME + ".impl.disable.cache", "true")
                .getOrCreate();
            session.sparkContext().setLogLevel("WARN");
            final SparkSession started = session;
            Runtime.getRuntime().addShutdownHook(new Thread(started::stop, "mrct-spark-test-stop"));
        }
        return session;
    }
}
