package io.shardgate.proxy.sharding.sequence;

import io.shardgate.errors.ErrorCode;
import io.shardgate.errors.ShardgateException;
import io.shardgate.proxy.sharding.FailureText;
import io.shardgate.router.schema.Sequence;

/**
 * A block of a global sequence could not be reserved on its shard. The client gets
 * {@link ErrorCode#SEQUENCE_UNAVAILABLE} with this message; its connection stays usable.
 */
public final class SequenceAllocationException extends ShardgateException {
    private static final long serialVersionUID = 1L;

    public SequenceAllocationException(Sequence sequence, String problem, Throwable cause) {
        super(ErrorCode.SEQUENCE_UNAVAILABLE, "sequence " + sequence.name() + " on shard " + sequence.shard() + ": " + problem
                + (cause == null ? "" : ": " + FailureText.of(cause)), cause);
    }
}
