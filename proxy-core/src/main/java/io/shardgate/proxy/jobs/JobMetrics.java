package io.shardgate.proxy.jobs;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;

import static java.util.Objects.requireNonNull;

/**
 * The jobs' gauges, for every job this proxy runs or has seen: {@code shardgate_job_rows_copied{job,table}},
 * {@code shardgate_job_rows_total{job,table}} (exported as a counter: see below), {@code shardgate_job_phase{job,phase}} (1 for the current phase, 0 for
 * the others), {@code shardgate_job_stream_lag_seconds{job}} (NaN while not streaming),
 * {@code shardgate_job_diff_chunks_done{job}}. {@link #refresh()} (before each scrape) adds the gauges of jobs and
 * tables that appeared since; their values are read from the runner's newest view at the scrape.
 */
public final class JobMetrics {
    private final MeterRegistry registry;
    private final Supplier<Map<String, Job>> jobs;
    private final Set<String> registered = ConcurrentHashMap.newKeySet();

    public JobMetrics(MeterRegistry registry, Supplier<Map<String, Job>> jobs) {
        this.registry = requireNonNull(registry, "registry is null");
        this.jobs = requireNonNull(jobs, "jobs is null");
    }

    public void refresh() {
        for (Job job : jobs.get().values()) {
            String id = job.id();
            if (registered.add(id)) {
                gauge("shardgate_job_stream_lag_seconds", "How far the job's change stream is behind its source (NaN: not streaming)",
                        id, j -> j.streamLagSeconds() == null ? Double.NaN : j.streamLagSeconds(), "job", id);
                gauge("shardgate_job_diff_chunks_done", "Diff chunks the job has compared", id, j -> j.diff().chunksDone(),
                        "job", id);
                for (JobPhase phase : JobPhase.values()) {
                    gauge("shardgate_job_phase", "1 for the job's current phase", id, j -> j.phase() == phase ? 1 : 0,
                            "job", id, "phase", phase.json());
                }
            }
            for (String table : job.tables().keySet()) {
                if (registered.add(id + "\u0000" + table)) {
                    gauge("shardgate_job_rows_copied", "Rows of the table the job has copied", id,
                            j -> progress(j, table).rowsCopied(), "job", id, "table", table);
                    // A gauge may not end in _total in the Prometheus exposition (the client strips it): a function counter
                    // named shardgate_job_rows is exported as shardgate_job_rows_total, the name operators look for.
                    FunctionCounter.builder("shardgate_job_rows", this, metrics -> value(id, j -> progress(j, table).rowsTotal()))
                            .description("Rows of the table the job copies (an estimate until counted)")
                            .tags("job", id, "table", table).register(registry);
                }
            }
        }
    }

    private double value(String id, ToDoubleFunction<Job> value) {
        Job job = jobs.get().get(id);
        return job == null ? Double.NaN : value.applyAsDouble(job);
    }

    private static Job.TableProgress progress(Job job, String table) {
        return job.tables().getOrDefault(table, Job.TableProgress.NONE);
    }

    private void gauge(String name, String description, String id, ToDoubleFunction<Job> value, String... tags) {
        Gauge.builder(name, () -> value(id, value)).description(description).tags(tags).strongReference(true).register(registry);
    }
}
