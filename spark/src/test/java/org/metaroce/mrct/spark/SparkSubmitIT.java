package org.metaroce.mrct.spark;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The spark-submit route of spark/README.md, run: {@code org.apache.spark.deploy.SparkSubmit} (the class Spark's
 * {@code bin/spark-submit} starts) in a JVM of its own with {@code --master local[2] --class ...FleetAnalysis} and
 * the application jar {@code target/mrct-spark-app.jar}. Its classpath is what a Spark installation's {@code jars/}
 * holds: Spark, Hadoop, Jackson and the rest of target/lib, without mrct, picocli and the YAML reader, which only the
 * application jar brings. The master reaches the application through spark-submit ({@code spark.master}), not
 * through its own option.
 */
class SparkSubmitIT {
    private static final Path ROOT = Path.of(System.getProperty("mrct.root", "..")).toAbsolutePath().normalize();
    /** What the application jar carries and a Spark installation lacks. */
    private static final List<String> APPLICATION_ONLY = List.of("mrct-", "picocli-", "snakeyaml-",
        "jackson-dataformat-yaml-");

    @Test
    void sparkSubmitRunsTheApplicationJar(@TempDir final Path tmp) throws Exception {
        final Path app = Path.of(System.getProperty("mrct.spark.app", "target/mrct-spark-app.jar"));
        final Path lib = Path.of(System.getProperty("mrct.spark.lib", "target/lib"));
        assertThat(app).isRegularFile();
        final String sparkJars;
        try (Stream<Path> jars = Files.list(lib)) {
            sparkJars = jars.filter(j -> APPLICATION_ONLY.stream().noneMatch(j.getFileName().toString()::startsWith))
                .map(Path::toString).sorted().collect(Collectors.joining(File.pathSeparator));
        }
        assertThat(sparkJars).contains("spark-core_2.13").doesNotContain("mrct-analyzer");
        final Path soft = ROOT.resolve("fixtures/captures/soft-roce");
        final Path reports = tmp.resolve("reports");
        final List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(Arrays.asList(System.getProperty("mrct.spark.opens", "").trim().split("\\s+")));
        command.addAll(List.of("-Xmx1g", "-cp", sparkJars, "org.apache.spark.deploy.SparkSubmit",
            "--master", "local[2]", "--deploy-mode", "client",
            "--conf", "spark.ui.enabled=false", "--conf", "spark.driver.host=127.0.0.1",
            "--conf", "spark.driver.bindAddress=127.0.0.1",
            "--class", "org.metaroce.mrct.spark.FleetAnalysis", app.toString(),
            "--report-dir", reports.toString(), "--format", "JSON,MARKDOWN", "--legacy",
            soft.resolve("pingpong_rc.pcap").toString(), soft.resolve("rdma_write_bw.pcap").toString()));
        command.removeIf(String::isEmpty);
        final Path out = tmp.resolve("out.txt");
        final Path err = tmp.resolve("err.txt");
        final ProcessBuilder builder = new ProcessBuilder(command).redirectOutput(out.toFile())
            .redirectError(err.toFile());
        builder.environment().put("SPARK_LOCAL_IP", "127.0.0.1");
        final Process process = builder.start();
        final boolean done = process.waitFor(10, TimeUnit.MINUTES);
        if (!done) {
            process.destroyForcibly();
        }
        final String stdout = read(out);
        final String stderr = read(err);
        assertThat(done).as("spark-submit ended; its errors: %s", stderr).isTrue();
        assertThat(process.exitValue()).as("exit status; out: %s; err: %s", stdout, stderr).isZero();
        assertThat(stdout).contains(soft.resolve("pingpong_rc.pcap") + ": ")
            .contains(soft.resolve("rdma_write_bw.pcap") + ": ")
            .contains("CONFORMANT: no violation seen")
            .contains("findings table (Parquet): " + reports.resolve("findings.parquet"));
        assertThat(reports.resolve("report.json")).isRegularFile();
        assertThat(Files.readString(reports.resolve("report.json"))).contains("pingpong_rc.pcap/C1/summary");
        try (Stream<Path> parts = Files.list(reports.resolve("findings.parquet"))) {
            assertThat(parts.map(p -> p.getFileName().toString())).anyMatch(n -> n.endsWith(".parquet"));
        }
    }

    private static String read(final Path file) throws IOException {
        return Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
    }
}
