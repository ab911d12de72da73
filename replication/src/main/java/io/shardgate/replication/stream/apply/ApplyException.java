package io.shardgate.replication.stream.apply;

import io.shardgate.replication.stream.StreamException;

/**
 * A batch could not be applied. {@link #retryable()} is true for what another try can fix
 * (deadlock, lock wait timeout, a dropped connection); the applier retries those and stops on
 * the rest.
 */
public class ApplyException extends StreamException {
    private final boolean retryable;

    public ApplyException(String message, boolean retryable, Throwable cause) {
        super(message, cause);
        this.retryable = retryable;
    }

    public boolean retryable() {
        return retryable;
    }
}
