package org.metaroce.mrct.spark.internal;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;

/**
 * Carries the analyzer's results from an executor to the driver as JSON text (the analyzer's and harness's records
 * are not {@code Serializable}, and JSON keeps the Spark job free of any serializer set-up on the cluster). The round
 * trip is exact for what the reports write; {@code FleetAnalysisTest} compares the reports of both paths.
 */
public final class CaseCodec {
    private static final ObjectMapper MAPPER = JsonMapper.builder()
        .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
        .build();

    private CaseCodec() {
    }

    /** {@code value} (a record of the analyzer's) as JSON. */
    public static String write(final Object value) {
        try {
            return MAPPER.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot encode " + value.getClass().getSimpleName() + ": "
                + e.getOriginalMessage(), e);
        }
    }

    /** A value {@link #write} wrote. */
    public static <T> T read(final String json, final Class<T> type) {
        try {
            return MAPPER.readValue(json, type);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot decode " + type.getSimpleName() + ": " + e.getOriginalMessage(),
                e);
        }
    }
}
