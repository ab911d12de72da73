package io.shardgate.storage.health;

import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

import static java.util.Objects.requireNonNull;

/**
 * What one health probe read from a backend.
 *
 * @param engineLoaded   whether the server still lists the shard's engine as usable
 * @param values         the engine metrics read this time
 * @param corruptIndexes {@code schema/table.index} of each index marked corrupt; empty when not
 *                       checked this time (see {@link #slowChecks})
 * @param tableBytes     allocated bytes per {@code schema.table}; empty when not checked this time
 * @param slowChecks     whether this probe ran the slow checks (corrupt indexes, table sizes)
 * @param countersBlocked whether reading the engine's status counters did not finish within
 *                        {@link HealthSettings#statusTimeout()} (MyRocks: writes are stopped now)
 */
public record EngineSample(boolean engineLoaded, Map<EngineMetric, Long> values, List<String> corruptIndexes,
                           Map<String, Long> tableBytes, boolean slowChecks, boolean countersBlocked) {
    /** The order of {@link #values}, and so of a report's metrics: Shardgate's own metrics first, as listed, then by name. */
    private static final Comparator<EngineMetric> ORDER = Comparator.comparingInt(EngineSample::builtInRank)
            .thenComparing(EngineMetric::metricName);

    private static int builtInRank(EngineMetric metric) {
        int rank = List.of(EngineMetric.values()).indexOf(metric);
        return rank < 0 ? Integer.MAX_VALUE : rank;
    }

    public EngineSample {
        Map<EngineMetric, Long> copy = new LinkedHashMap<>();
        requireNonNull(values, "values is null").entrySet().stream().sorted(Map.Entry.comparingByKey(ORDER))
                .forEach(entry -> copy.put(entry.getKey(), entry.getValue()));
        values = Collections.unmodifiableMap(copy);
        corruptIndexes = List.copyOf(requireNonNull(corruptIndexes, "corruptIndexes is null"));
        tableBytes = Map.copyOf(requireNonNull(tableBytes, "tableBytes is null"));
    }

    /** A server that no longer has the engine: nothing else was read. */
    public static EngineSample engineMissing() {
        return new EngineSample(false, Map.of(), List.of(), Map.of(), false, false);
    }

    public OptionalLong value(EngineMetric metric) {
        Long value = values.get(metric);
        return value == null ? OptionalLong.empty() : OptionalLong.of(value);
    }

    /** How much {@code metric} grew since {@code previous}; 0 when either lacks it or it went down (a restart). */
    public long growthSince(EngineSample previous, EngineMetric metric) {
        if (previous == null) {
            return 0;
        }
        OptionalLong now = value(metric);
        OptionalLong before = previous.value(metric);
        if (now.isEmpty() || before.isEmpty()) {
            return 0;
        }
        return Math.max(0, now.getAsLong() - before.getAsLong());
    }

    /**
     * This sample with the slow checks' results of {@code slow} (corrupt indexes, table sizes and
     * their metrics) when this one did not run them; used between two slow checks.
     */
    public EngineSample withSlowResultsOf(EngineSample slow) {
        if (slowChecks || slow == null || !slow.slowChecks || !engineLoaded) {
            return this;
        }
        Map<EngineMetric, Long> merged = new LinkedHashMap<>();
        merged.putAll(values);
        for (EngineMetric metric : List.of(EngineMetric.INNODB_CORRUPT_INDEXES, EngineMetric.TABLE_ALLOCATED_BYTES)) {
            slow.value(metric).ifPresent(value -> merged.putIfAbsent(metric, value));
        }
        return new EngineSample(true, merged, slow.corruptIndexes, slow.tableBytes, false, countersBlocked);
    }
}
