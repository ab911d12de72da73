package io.shardgate.proxy.jobs;

import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * The executor of each job kind on this proxy. The proxy's wiring fills it (reshard, move); a kind without one is
 * left to a proxy that has it.
 */
public final class JobExecutors {
    private final Map<JobKind, JobExecutor> byKind;

    private JobExecutors(Map<JobKind, JobExecutor> byKind) {
        this.byKind = byKind;
    }

    /** No executors: jobs can be created and shown, and wait for a proxy that runs them. */
    public static JobExecutors none() {
        return new JobExecutors(new EnumMap<>(JobKind.class));
    }

    /** A copy that runs {@code kind} with {@code executor}. */
    public JobExecutors with(JobKind kind, JobExecutor executor) {
        Map<JobKind, JobExecutor> next = new EnumMap<>(JobKind.class);
        next.putAll(byKind);
        next.put(requireNonNull(kind, "kind is null"), requireNonNull(executor, "executor is null"));
        return new JobExecutors(next);
    }

    public Optional<JobExecutor> forKind(JobKind kind) {
        return Optional.ofNullable(byKind.get(kind));
    }
}
