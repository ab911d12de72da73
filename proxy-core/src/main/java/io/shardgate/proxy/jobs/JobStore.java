package io.shardgate.proxy.jobs;

import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Where a deployment's jobs live, next to its topology: etcd ({@code <prefix>/jobs/<id>}) when the topology is in etcd,
 * else a JSON file next to the config file (one proxy). Every write is a compare-and-set on the job's version. Methods
 * throw {@link io.shardgate.proxy.topology.TopologyStoreUnavailableException} when the store cannot be reached.
 */
public interface JobStore extends AutoCloseable {
    /** Every job, oldest id first. */
    List<StoredJob> list();

    Optional<StoredJob> read(String id);

    /** Stores a new job: {@link JobWrite.Conflict} when its id exists already. */
    JobWrite create(Job job);

    /**
     * Replaces the job when its version is still {@code expectedVersion} and, when {@code runner} is given, while that
     * runner lease is still held (the key it created is still there).
     */
    JobWrite compareAndSet(long expectedVersion, Job job, Optional<RunnerLease> runner);

    /**
     * Calls {@code changed} with the id of a job whose document or runner changed (a runner's lease expired too), on a
     * thread of the store's. Survives outages as well as it can; callers also list now and then.
     */
    void watch(Consumer<String> changed);

    /** Takes the job's runner lease for {@code proxyId}, if no live runner holds it. */
    Optional<RunnerLease> tryTakeRunner(String jobId, String proxyId);

    /** The proxy that holds the job's runner lease now, if any. */
    Optional<String> runner(String jobId);

    boolean available();

    String describe();

    @Override
    void close();
}
