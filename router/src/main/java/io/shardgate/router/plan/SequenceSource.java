package io.shardgate.router.plan;

import io.shardgate.router.schema.Sequence;

/**
 * Hands out global sequence values; proxy-core allocates them in blocks from the sequence table on
 * the sequence's shard. Values must be unique across all callers.
 */
public interface SequenceSource {

    /** The next value of {@code sequence}. */
    long next(Sequence sequence);

    /**
     * The first of {@code count} consecutive values of {@code sequence}, for a multi-row INSERT:
     * clients (MySQL Connector/J's generated keys) take a statement's ids to be consecutive from the
     * first, as they are with MariaDB's AUTO_INCREMENT. This default is consecutive only without
     * concurrent callers; proxy-core's allocator reserves the range atomically.
     */
    default long nextRange(Sequence sequence, int count) {
        long first = next(sequence);
        for (int i = 1; i < count; i++) {
            next(sequence);
        }
        return first;
    }
}
