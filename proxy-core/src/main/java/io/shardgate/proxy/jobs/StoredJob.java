package io.shardgate.proxy.jobs;

import static java.util.Objects.requireNonNull;

/** A job as the store holds it, with its version (etcd: the key's mod revision); a write names the version it replaces. */
public record StoredJob(Job job, long version) {
    public StoredJob {
        requireNonNull(job, "job is null");
    }
}
