package io.shardgate.replication.diff;

import static java.util.Objects.requireNonNull;

/**
 * The number of source rows of the next chunk, adapted to {@link DiffOptions#chunkTime}: after each chunk
 * the size is scaled by target time / measured time, by at most 2× up or down per chunk, within the
 * options' bounds. The size scaled is the planned one when the chunk was quick, the rows it really held
 * when it was slow (a computed bound can overshoot; a gap in the keys must not shrink the plan). For
 * example, with a 500 ms target, a 10,000-row chunk taking 100 ms makes the next one 20,000 rows (the 5×
 * is capped at 2×); a 10,000-row chunk taking 800 ms makes it 6,250; a chunk planned at 10,000 rows that
 * held 40,000 and took 1 s makes it 20,000.
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

    /** A chunk planned at {@code plannedRows} held {@code actualRows} source rows and took {@code nanos}. */
    void observe(long plannedRows, long actualRows, long nanos) {
        long target = options.chunkTime().toNanos();
        double factor = nanos <= 0 ? 2.0 : Math.max(0.5, Math.min(2.0, (double) target / nanos));
        long base = nanos > target ? Math.max(1, actualRows) : plannedRows;
        long next = Math.round(base * factor);
        rows = Math.max(options.minChunkRows(), Math.min(options.maxChunkRows(), next));
    }
}
