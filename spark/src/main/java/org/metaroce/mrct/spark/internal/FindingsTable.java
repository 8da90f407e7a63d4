package org.metaroce.mrct.spark.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SaveMode;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.metaroce.mrct.harness.result.CaseResult;

/**
 * The findings as a Parquet table for SQL: one row per case of the report (each (connection, rule) check, and each
 * connection's summary with a null {@code rule}), in report order. Columns are listed in spark/README.md.
 */
public final class FindingsTable {
    /** The frame a check's reason names first ({@code ..., first at frame N: ...}). */
    private static final Pattern FIRST_FRAME = Pattern.compile("first at frame (\\d+)");

    /** The table's columns. */
    public static final StructType SCHEMA = new StructType(new StructField[] {
        DataTypes.createStructField("capture", DataTypes.StringType, true),
        DataTypes.createStructField("case_id", DataTypes.StringType, false),
        DataTypes.createStructField("connection_id", DataTypes.StringType, false),
        DataTypes.createStructField("connection", DataTypes.StringType, true),
        DataTypes.createStructField("tver", DataTypes.IntegerType, true),
        DataTypes.createStructField("rule", DataTypes.StringType, true),
        DataTypes.createStructField("title", DataTypes.StringType, true),
        DataTypes.createStructField("area", DataTypes.StringType, true),
        DataTypes.createStructField("level", DataTypes.StringType, true),
        DataTypes.createStructField("role", DataTypes.StringType, true),
        DataTypes.createStructField("verdict", DataTypes.StringType, false),
        DataTypes.createStructField("reason", DataTypes.StringType, true),
        DataTypes.createStructField("first_frame", DataTypes.LongType, true),
        DataTypes.createStructField("duration_ns", DataTypes.LongType, false),
        DataTypes.createStructField("notes", DataTypes.createArrayType(DataTypes.StringType, false), false),
    });

    private FindingsTable() {
    }

    /** The rows of {@code cases} (with their captures' names; null for the cases matching several captures). */
    public static List<Row> rows(final List<String> captures, final List<CaseResult> cases) {
        final List<Row> rows = new ArrayList<>(cases.size());
        for (int i = 0; i < cases.size(); i++) {
            final CaseResult r = cases.get(i);
            final String id = r.id();
            final int slash = id.lastIndexOf('/');
            final Object tver = r.parameters().get("tver");
            final Object connection = r.parameters().get("connection");
            Long first = null;
            if (r.reason() != null) {
                final Matcher m = FIRST_FRAME.matcher(r.reason());
                if (m.find()) {
                    first = Long.parseLong(m.group(1));
                }
            }
            rows.add(RowFactory.create(captures.get(i), id, slash < 0 ? id : id.substring(0, slash),
                connection == null ? null : connection.toString(),
                tver instanceof Number ? ((Number) tver).intValue() : null,
                r.rules().isEmpty() ? null : r.rules().get(0), r.title(), r.area(),
                r.level() == null ? null : r.level().name(), r.role() == null ? null : r.role().name(),
                r.verdict().name(), r.reason(), first, r.deviceNanos(), r.notes().toArray(new String[0])));
        }
        return rows;
    }

    /** Writes the table to {@code path} (any Hadoop path), replacing what is there. */
    public static void write(final SparkSession spark, final List<Row> rows, final String path) {
        final Dataset<Row> table = spark.createDataFrame(rows, SCHEMA).coalesce(1);
        table.write().mode(SaveMode.Overwrite).parquet(path);
    }
}
