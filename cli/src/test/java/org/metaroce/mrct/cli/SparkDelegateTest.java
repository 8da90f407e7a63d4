package org.metaroce.mrct.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code mrct analyze --spark MASTER}: the options reach the Spark application in a child JVM (here a stub that
 * prints them), its output and exit status come back, and a missing spark build is said plainly. The Spark job itself
 * is tested in the spark module.
 */
class SparkDelegateTest {
    @AfterEach
    void clear() {
        System.clearProperty("mrct.spark.classpath");
        System.clearProperty("mrct.spark.main");
    }

    @Test
    void optionsReachTheChildAndItsStatusComesBack(@TempDir final Path tmp) {
        System.setProperty("mrct.spark.classpath", System.getProperty("java.class.path"));
        System.setProperty("mrct.spark.main", SparkChildStub.class.getName());
        final Mrct.Run run = Mrct.run("analyze", "--spark", "local[3]", "--report-dir", tmp.toString(), "--legacy",
            "--complete", "--match-window-ms", "25", "--format", "JSON,HTML", "--", "hdfs:///traces/a.pcap",
            "--odd name.pcap");
        assertThat(run.status()).as(run.err()).isEqualTo(1);
        assertThat(run.out()).contains("child args: --master local[3] --report-dir " + tmp
            + " --format JSON,HTML --legacy --complete --match-window-ms 25 --suite-version ")
            .endsWith(" -- hdfs:///traces/a.pcap --odd name.pcap" + System.lineSeparator());
        assertThat(run.err()).contains("child stderr line");
    }

    @Test
    void aMissingSparkBuildIsSaid(@TempDir final Path tmp) {
        assumeTrue(System.getenv("MRCT_SPARK_CLASSPATH") == null, "MRCT_SPARK_CLASSPATH is set");
        final String root = System.getProperty("mrct.root");
        System.setProperty("mrct.root", tmp.toString());
        try {
            final Mrct.Run run = Mrct.run("analyze", "--spark", "local[2]", "--report-dir",
                tmp.resolve("r").toString(), "x.pcap");
            assertThat(run.status()).isEqualTo(2);
            assertThat(run.err()).contains("the spark module is not built")
                .contains("mvn -pl spark -am package -DskipTests");
        } finally {
            if (root == null) {
                System.clearProperty("mrct.root");
            } else {
                System.setProperty("mrct.root", root);
            }
        }
    }
}
