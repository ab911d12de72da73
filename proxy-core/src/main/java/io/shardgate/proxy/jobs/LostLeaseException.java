package io.shardgate.proxy.jobs;

/** The runner no longer holds the job's lease (or the job is gone): whatever it was doing, it must stop. */
public final class LostLeaseException extends Exception {
    public LostLeaseException(String message) {
        super(message);
    }
}
