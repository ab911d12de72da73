package io.shardgate.proxy.jobs;

import io.micrometer.core.instrument.MeterRegistry;
import io.shardgate.proxy.admin.AdminRoutes;
import io.shardgate.proxy.config.TopologyConfig;
import io.shardgate.proxy.topology.TopologyDocument;

import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
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
