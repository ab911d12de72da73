package io.shardgate.proxy.jobs;

/**
 * Runs the phases of one kind of job (reshard, move) on the proxy that holds the job's runner lease. {@link #run}
 * returns once the job is in a terminal phase (done, cancelled, reversed); it may be called again for the same job on
 * another proxy after this one died, and then resumes from the job's checkpoints. It should check
 * {@link JobContext#cancelled()} and {@link JobContext#lostLease()} between chunks of work, and stop at once when the
 * lease is lost. What it throws fails the job (phase {@code failed}, the exception as its error), unless the lease was
 * lost or the proxy is stopping: then another runner carries on.
 */
@FunctionalInterface
public interface JobExecutor {
    void run(JobContext context) throws Exception;
}
