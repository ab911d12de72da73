package io.shardgate.router.plan;

import io.shardgate.router.schema.Sequence;

/**
 * Hands out global sequence values; proxy-core allocates them in blocks from the sequence table on
 * the sequence's shard. Values must be unique across all callers.
 */
public interface SequenceSource {

    /** The next value of {@code sequence}. */
    long next(Sequence sequence);
}
