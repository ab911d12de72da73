package io.shardgate.replication.diff;

import static java.util.Objects.requireNonNull;

/**
 * The number of source rows of the next chunk, adapted to {@link DiffOptions#chunkTime}: after each chunk
 * the size is scaled by target time / measured time, by at most 2× up or down per chunk, within the
 * options' bounds. For example, with a 500 ms target, a 10,000-row chunk taking 100 ms makes the next one
 * 20,000 rows (the 5× is capped at 2×); a 10,000-row chunk taking 800 ms makes it 6,250.
 */
final class ChunkSizer {
    private final DiffOptions options;
    private long rows;

    ChunkSizer(DiffOptions options) {
        this.options = requireNonNull(options, "options is null");
        this.rows = options.firstChunkRows();
    }

    long rows() {
        return rows;
    }

    /** A chunk of {@code chunkRows} rows (as planned) took {@code nanos}. */
    void observe(long chunkRows, long nanos) {
        double target = options.chunkTime().toNanos();
        double factor = nanos <= 0 ? 2.0 : Math.max(0.5, Math.min(2.0, target / nanos));
        long next = Math.round(chunkRows * factor);
        rows = Math.max(options.minChunkRows(), Math.min(options.maxChunkRows(), next));
    }
}
