package io.shardgate.storage.health;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * The latest health of one backend.
 *
 * @param backend    such as {@code s1 primary (rocksdb, 127.0.0.1:24001)}
 * @param state      OK, DEGRADED, STALLED or FAILED
 * @param reasons    why the state is not OK, in the order found; empty when OK
 * @param metrics    {@link EngineMetric#metricName()} to value, as read by the last successful
 *                   probe; empty while the backend is unreachable
 * @param tableBytes allocated bytes per {@code schema.table}, from the last slow check
 * @param probedAt   when the probe that produced this report started
 */
public record HealthReport(String backend, HealthState state, List<String> reasons, Map<String, Long> metrics,
                           Map<String, Long> tableBytes, Instant probedAt) {
    public HealthReport {
        requireNonNull(backend, "backend is null");
        requireNonNull(state, "state is null");
        reasons = List.copyOf(requireNonNull(reasons, "reasons is null"));
        metrics = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(requireNonNull(metrics, "metrics is null")));
        tableBytes = Map.copyOf(requireNonNull(tableBytes, "tableBytes is null"));
        requireNonNull(probedAt, "probedAt is null");
    }

    static HealthReport of(String backend, Judgement judgement, EngineSample sample, Instant probedAt) {
        Map<String, Long> metrics = new LinkedHashMap<>();
        sample.values().forEach((metric, value) -> metrics.put(metric.metricName(), value));
        return new HealthReport(backend, judgement.state(), judgement.reasons(), metrics, sample.tableBytes(), probedAt);
    }

    static HealthReport failed(String backend, String reason, Instant probedAt) {
        return new HealthReport(backend, HealthState.FAILED, List.of(reason), Map.of(), Map.of(), probedAt);
    }

    /** The value of one metric, or -1 when the last probe did not read it. */
    public long metric(EngineMetric metric) {
        return metrics.getOrDefault(metric.metricName(), -1L);
    }
}
