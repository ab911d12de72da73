package io.shardgate.proxy.jobs;

/** What a compare-and-set of a job did. */
public sealed interface JobWrite {
    /** Written: the job's new version. */
    record Written(long version) implements JobWrite {
    }

    /**
     * Not written: the job changed since the version the write was made to ({@code current}, empty when the job is
     * gone or, for a create, already exists), or the writer no longer holds the job's runner lease.
     */
    record Conflict(java.util.Optional<StoredJob> current) implements JobWrite {
    }
}
