package io.shardgate.proxy.sharding;

import io.shardgate.router.schema.Sequence;

/** A block of a global sequence could not be reserved on its shard. */
public final class SequenceAllocationException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public SequenceAllocationException(Sequence sequence, String problem, Throwable cause) {
        super("sequence " + sequence.name() + " on shard " + sequence.shard() + ": " + problem
                + (cause == null ? "" : ": " + FailureText.of(cause)), cause);
    }
}
