package io.shardgate.proxy.digest;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * Per-digest meters for the {@code metrics_top} digests with the most total time, refreshed before
 * each scrape ({@link #refresh()}): a digest that leaves the top loses its meters, so the registry
 * never holds more than {@code metrics_top} digests' worth, however many distinct statements run.
 * Tags: {@code digest} (the hash), {@code schema} and {@code digest_text} (cut to 120 characters).
 */
public final class DigestMetrics {
    private static final int TEXT_TAG = 120;
    private static final double[] QUANTILES = {0.5, 0.95, 0.99};

    private final QueryDigests digests;
    private final MeterRegistry registry;
    private final Map<DigestStats, List<Meter>> registered = new HashMap<>();

    public DigestMetrics(QueryDigests digests, MeterRegistry registry) {
        this.digests = requireNonNull(digests, "digests is null");
        this.registry = requireNonNull(registry, "registry is null");
    }

    /** Brings the per-digest meters to the current top; call before a scrape. */
    public synchronized void refresh() {
        int top = digests.enabled() ? digests.config().metricsTop() : 0;
        List<DigestStats> wanted = top == 0 ? List.of() : digests.topByTotalTime(top);
        registered.entrySet().removeIf(entry -> {
            if (wanted.contains(entry.getKey())) {
                return false;
            }
            entry.getValue().forEach(registry::remove);
            return true;
        });
        for (DigestStats stats : wanted) {
            registered.computeIfAbsent(stats, this::register);
        }
    }

    /** How many digests have meters now. */
    public synchronized int digestsWithMeters() {
        return registered.size();
    }

    private List<Meter> register(DigestStats stats) {
        String text = stats.text().length() > TEXT_TAG ? stats.text().substring(0, TEXT_TAG - 3) + "..." : stats.text();
        Tags tags = Tags.of("digest", stats.id(), "schema", stats.schema(), "digest_text", text);
        List<Meter> meters = new ArrayList<>();
        meters.add(FunctionCounter.builder("shardgate_query_digest_statements", stats, DigestStats::count)
                .description("Statements of a top digest").tags(tags).register(registry));
        meters.add(FunctionCounter.builder("shardgate_query_digest_errors", stats, DigestStats::errors)
                .description("Statements of a top digest that ended in an error").tags(tags).register(registry));
        meters.add(FunctionCounter.builder("shardgate_query_digest_time_seconds", stats, s -> s.totalNanos() / 1e9)
                .description("Total time of a top digest's statements").tags(tags).register(registry));
        for (double quantile : QUANTILES) {
            meters.add(Gauge.builder("shardgate_query_digest_latency_seconds", stats, s -> s.latency().percentile(quantile) / 1e6)
                    .description("Latency percentile of a top digest's statements (histogram bucket upper bound)")
                    .tags(tags).tag("quantile", Double.toString(quantile)).register(registry));
        }
        return meters;
    }
}
