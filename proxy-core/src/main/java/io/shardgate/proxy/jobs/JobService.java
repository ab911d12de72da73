package io.shardgate.proxy.jobs;

import io.micrometer.core.instrument.MeterRegistry;
import io.shardgate.proxy.admin.AdminRoutes;
import io.shardgate.proxy.config.TopologyConfig;
import io.shardgate.proxy.topology.ShardUse;
import io.shardgate.proxy.topology.TopologyDocument;

import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.function.Supplier;

import static java.util.Objects.requireNonNull;

/**
 * A proxy's jobs: the store next to its topology, the runner of the jobs whose kinds {@code executors} has, the admin
 * routes and the metrics. Started by the proxy's wiring, closed on shutdown (the runner stops first and gives its
 * leases up, then the store closes).
 */
public final class JobService implements AutoCloseable {
    /** How often the runner lists the jobs besides following the store's watch (which sees new jobs and lost runners). */
    static final Duration SCAN_INTERVAL = Duration.ofSeconds(2);

    private final JobStore store;
    private final JobRunner runner;
    private final JobsApi api;
    private final JobMetrics metrics;

    private JobService(JobStore store, JobRunner runner, JobsApi api, JobMetrics metrics) {
        this.store = store;
        this.runner = runner;
        this.api = api;
        this.metrics = metrics;
    }

    /**
     * @param topology    the topology this proxy serves now (requests are checked against it)
     * @param knownEngine true for an engine some storage adapter declares
     */
    public static JobService start(TopologyConfig config, String proxyId, JobExecutors executors, MeterRegistry registry,
                                   Supplier<TopologyDocument> topology, Predicate<String> knownEngine) {
        requireNonNull(registry, "registry is null");
        JobStore store = JobStores.open(config);
        try {
            Clock clock = Clock.systemUTC();
            JobRunner runner = new JobRunner(store, executors, proxyId, clock, SCAN_INTERVAL);
            JobsApi api = new JobsApi(store, new JobSpecs(knownEngine), topology, clock, new SecureRandom());
            JobMetrics metrics = new JobMetrics(registry, runner::seen);
            runner.start();
            return new JobService(store, runner, api, metrics);
        } catch (RuntimeException e) {
            store.close();
            throw e;
        }
    }

    public AdminRoutes routes() {
        return api;
    }

    /** Adds the gauges of jobs seen since the last scrape: run it before each. */
    public void refreshMetrics() {
        metrics.refresh();
    }

    /**
     * The job that has not ended (any phase but done, cancelled, reversed, failed) and has {@code shard} as its source
     * or a target: the admin API does not remove such a shard. Reads the store each time.
     */
    public ShardUse shardUse() {
        return shardUse(store);
    }

    /** {@link #shardUse()} over {@code store}. */
    static ShardUse shardUse(JobStore store) {
        return shard -> {
            for (StoredJob stored : store.list()) {
                Job job = stored.job();
                String role = job.phase().terminal() ? null : role(job, shard);
                if (role != null) {
                    return Optional.of("job " + job.id() + " (" + job.kind().json() + ", phase " + job.phase().json() + ") has it as its "
                            + role + " and has not ended: " + (job.phase() == JobPhase.SWITCHED ? "complete or reverse" : "cancel")
                            + " the job, or let it end, first");
                }
            }
            return Optional.empty();
        };
    }

    /** {@code source} or {@code target} when the job's spec names {@code shard} so; else null. */
    private static String role(Job job, String shard) {
        if (shard.equals(job.spec().path("source").asText(null))) {
            return "source";
        }
        boolean target = shard.equals(job.spec().path("target").asText(null));
        for (com.fasterxml.jackson.databind.JsonNode node : job.spec().path("targets")) {
            target |= shard.equals(node.path("name").asText(null));
        }
        return target ? "target" : null;
    }

    public JobStore store() {
        return store;
    }

    public JobRunner runner() {
        return runner;
    }

    @Override
    public void close() {
        runner.close();
        store.close();
    }
}
