package io.shardgate.proxy.jobs;

/**
 * The right to run one job: held by one proxy at a time. On etcd it is {@code <prefix>/jobs/<id>/runner}, created only
 * when absent under a lease of a few seconds that the holder keeps alive; when the holder dies the lease expires, the
 * key goes, and another proxy may take it. A runner's writes to the job go through only while it still holds the key
 * it created ({@link JobStore#compareAndSet} with this lease), so two runners can never both write.
 */
public interface RunnerLease extends AutoCloseable {
    String jobId();

    /** The proxy that holds it. */
    String holder();

    /** True once the lease is known lost (expired, or the store said so): the job's writes fail from then on. */
    boolean lost();

    /** Gives the lease up (the key is deleted at once), so another proxy may take the job. Safe to call twice. */
    @Override
    void close();
}
