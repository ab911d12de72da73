package io.shardgate.proxy.sharding.sequence;

import io.shardgate.router.schema.Sequence;

/** Where blocks of a global sequence are reserved; {@link SequenceTable} keeps them on the sequence's shard. */
@FunctionalInterface
public interface SequenceStore {

    /**
     * Reserves {@code count} consecutive values of {@code sequence} that no other call, in this
     * process or any other, ever gets, and returns the first of them.
     *
     * @throws SequenceAllocationException when the block cannot be reserved
     */
    long reserve(Sequence sequence, int count);
}
