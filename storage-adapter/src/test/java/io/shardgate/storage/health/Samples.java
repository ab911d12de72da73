package io.shardgate.storage.health;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Hand-written samples: {@code Samples.of(ROCKSDB_STALL_STOPS, 4, ROCKSDB_STALL_MICROS, 1000)}. */
final class Samples {
    private Samples() {
    }

    /** A MyRocks sample whose stall counters could not be read in time. */
    static EngineSample blocked() {
        return new EngineSample(true, Map.of(), List.of(), Map.of(), false, true);
    }

    static EngineSample of(Object... metricsAndValues) {
        Map<EngineMetric, Long> values = new LinkedHashMap<>();
        for (int i = 0; i < metricsAndValues.length; i += 2) {
            values.put((EngineMetric) metricsAndValues[i], ((Number) metricsAndValues[i + 1]).longValue());
        }
        return new EngineSample(true, values, List.of(), Map.of(), false, false);
    }
}
