package org.metaroce.mrct.cli;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.metaroce.mrct.analyzer.CaptureAnalyzer;
import org.metaroce.mrct.reports.ReportFormat;

/**
 * {@code mrct analyze --spark MASTER}: runs the Spark application of the {@code spark} module in a child JVM and
 * passes its output and exit status through.
 *
 * <p>A child JVM, not the CLI's own: Spark and its few hundred jars stay off the CLI's classpath (the CLI jar knows
 * nothing of Spark, and its start-up stays as fast), and Spark on Java 17 needs {@code --add-opens} options that only
 * a JVM's command line can give. The classpath is, in this order: the system property {@code mrct.spark.classpath},
 * the environment variable {@code MRCT_SPARK_CLASSPATH}, or the spark module's build output
 * ({@code <mrct root>/spark/target/mrct-spark.jar} and {@code spark/target/lib/*}); {@code MRCT_SPARK_JAVA_OPTS} adds
 * JVM options (a heap size).
 */
final class SparkDelegate {
    /** The Spark application's main class. */
    static final String MAIN = "org.metaroce.mrct.spark.FleetAnalysis";

    /** The JVM options Spark needs on Java 17 (the list of spark/pom.xml and of Spark's own launcher). */
    static final List<String> JAVA_OPTIONS = List.of("--add-opens=java.base/java.lang=ALL-UNNAMED",
        "--add-opens=java.base/java.lang.invoke=ALL-UNNAMED", "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED",
        "--add-opens=java.base/java.io=ALL-UNNAMED", "--add-opens=java.base/java.net=ALL-UNNAMED",
        "--add-opens=java.base/java.nio=ALL-UNNAMED", "--add-opens=java.base/java.util=ALL-UNNAMED",
        "--add-opens=java.base/java.util.concurrent=ALL-UNNAMED",
        "--add-opens=java.base/java.util.concurrent.atomic=ALL-UNNAMED",
        "--add-opens=java.base/jdk.internal.ref=ALL-UNNAMED", "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
        "--add-opens=java.base/sun.nio.cs=ALL-UNNAMED", "--add-opens=java.base/sun.security.action=ALL-UNNAMED",
        "--add-opens=java.base/sun.util.calendar=ALL-UNNAMED", "-Djdk.reflect.useDirectMethodHandle=false",
        "-Dio.netty.tryReflectionSetAccessible=true");

    private SparkDelegate() {
    }

    /** What {@code mrct analyze} was asked, for the child's command line. */
    record Request(String master, List<String> files, Path dir, Set<ReportFormat> formats,
                   CaptureAnalyzer.Mode mode, Path profile, boolean complete, long matchWindowMs,
                   long releaseAfterMs, long maxHeldFlows) {
    }

    /** Runs the analysis on Spark; returns the child's exit status (2 when it cannot be started). */
    static int run(final Request request, final PrintStream out, final PrintStream err) {
        final String classpath = classpath(err);
        if (classpath == null) {
            return ExitStatus.UNREADABLE;
        }
        final List<String> command = command(request, classpath);
        final Process child;
        try {
            final ProcessBuilder builder = new ProcessBuilder(command);
            if (request.master().startsWith("local")) {
                // a local master talks to itself only: Spark's services on the loopback interface
                builder.environment().putIfAbsent("SPARK_LOCAL_IP", "127.0.0.1");
            }
            child = builder.start();
        } catch (IOException e) {
            err.println("mrct analyze --spark: cannot start " + command.get(0) + ": " + e.getMessage());
            return ExitStatus.UNREADABLE;
        }
        final Thread stop = new Thread(child::destroy, "mrct-spark-stop");
        Runtime.getRuntime().addShutdownHook(stop);
        final Thread copyOut = copy(child.getInputStream(), out);
        final Thread copyErr = copy(child.getErrorStream(), err);
        try {
            child.getOutputStream().close();
            final int status = child.waitFor();
            copyOut.join();
            copyErr.join();
            return status;
        } catch (IOException e) {
            return child.exitValue();
        } catch (InterruptedException e) {
            child.destroy();
            Thread.currentThread().interrupt();
            err.println("mrct analyze --spark: interrupted");
            return ExitStatus.UNREADABLE;
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(stop);
            } catch (IllegalStateException shuttingDown) {
                // the hook runs anyway
            }
        }
    }

    /** The child's command line. */
    static List<String> command(final Request request, final String classpath) {
        final List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(JAVA_OPTIONS);
        final String extra = System.getenv("MRCT_SPARK_JAVA_OPTS");
        if (extra != null && !extra.isBlank()) {
            command.addAll(Arrays.asList(extra.trim().split("\\s+")));
        }
        command.add("-cp");
        command.add(classpath);
        command.add(System.getProperty("mrct.spark.main", MAIN));
        command.add("--master");
        command.add(request.master());
        command.add("--report-dir");
        command.add(request.dir().toString());
        command.add("--format");
        final List<String> formats = new ArrayList<>();
        request.formats().forEach(f -> formats.add(f.name()));
        command.add(String.join(",", formats));
        command.add("--" + request.mode().name().toLowerCase(Locale.ROOT));
        if (request.profile() != null) {
            command.add("--profile");
            command.add(request.profile().toString());
        }
        if (request.complete()) {
            command.add("--complete");
        }
        command.add("--match-window-ms");
        command.add(Long.toString(request.matchWindowMs()));
        if (request.releaseAfterMs() >= 0) {
            command.add("--release-after-ms");
            command.add(Long.toString(request.releaseAfterMs()));
        }
        if (request.maxHeldFlows() > 0) {
            command.add("--max-held-flows");
            command.add(Long.toString(request.maxHeldFlows()));
        }
        command.add("--suite-version");
        command.add(Version.current());
        command.add("--");
        command.addAll(request.files());
        return command;
    }

    /** The Spark application's classpath, or null (said on {@code err}) when the spark module is not built. */
    private static String classpath(final PrintStream err) {
        final String property = System.getProperty("mrct.spark.classpath");
        if (property != null && !property.isBlank()) {
            return property;
        }
        final String env = System.getenv("MRCT_SPARK_CLASSPATH");
        if (env != null && !env.isBlank()) {
            return env;
        }
        final Path root = Path.of(System.getProperty("mrct.root", ".")).toAbsolutePath().normalize();
        final Path jar = root.resolve("spark/target/mrct-spark.jar");
        final Path lib = root.resolve("spark/target/lib");
        if (!Files.isRegularFile(jar) || !Files.isDirectory(lib)) {
            err.println("mrct analyze --spark: the spark module is not built (" + jar + " or " + lib + " missing): "
                + "run 'mvn -pl spark -am package -DskipTests' in " + root + ", or set MRCT_SPARK_CLASSPATH");
            return null;
        }
        return jar + File.pathSeparator + lib.resolve("*");
    }

    private static Thread copy(final InputStream from, final PrintStream to) {
        final Thread thread = new Thread(() -> {
            final byte[] buffer = new byte[8192];
            try (InputStream in = from) {
                int n;
                while ((n = in.read(buffer)) > 0) {
                    to.write(buffer, 0, n);
                    to.flush();
                }
            } catch (IOException e) {
                // the child has gone; its status says how
            }
        }, "mrct-spark-output");
        thread.setDaemon(true);
        thread.start();
        return thread;
    }
}
