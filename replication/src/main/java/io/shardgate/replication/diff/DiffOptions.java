package io.shardgate.replication.diff;

import java.time.Duration;

import static java.util.Objects.requireNonNull;

/**
 * How a diff paces itself.
 *
 * @param chunkTime       the time one chunk should take on the slowest server; chunk sizes adapt to it
 * @param firstChunkRows  the first chunk's size, before any time was measured
 * @param minChunkRows    the smallest chunk
 * @param maxChunkRows    the largest chunk
 * @param narrowRows      a mismatching range is split until every server holds at most this many of its
 *                        rows, then compared row by row
 * @param maxReported     how many differing rows are handed to the sink (all are counted)
 * @param snapshotHold    a matched set of snapshots is reopened once it is this old, so no snapshot is
 *                        held longer than this plus one chunk
 */
public record DiffOptions(Duration chunkTime, long firstChunkRows, long minChunkRows, long maxChunkRows,
        int narrowRows, long maxReported, Duration snapshotHold) {
    public DiffOptions {
        requireNonNull(chunkTime, "chunkTime is null");
        requireNonNull(snapshotHold, "snapshotHold is null");
        if (chunkTime.isNegative() || chunkTime.isZero()) {
            throw new IllegalArgumentException("chunkTime: " + chunkTime + " (expected: > 0)");
        }
        if (minChunkRows < 1 || maxChunkRows < minChunkRows || firstChunkRows < minChunkRows
                || firstChunkRows > maxChunkRows) {
            throw new IllegalArgumentException("chunk rows: first " + firstChunkRows + ", min " + minChunkRows + ", max "
                    + maxChunkRows + " (expected: 1 <= min <= first <= max)");
        }
        if (narrowRows < 1) {
            throw new IllegalArgumentException("narrowRows: " + narrowRows + " (expected: >= 1)");
        }
        if (maxReported < 0) {
            throw new IllegalArgumentException("maxReported: " + maxReported + " (expected: >= 0)");
        }
    }

    /** 0.5 s chunks from 1,000 to 1,000,000 rows (10,000 first), narrowed to 1,000 rows, 1,000 reported, 2 s snapshots. */
    public static DiffOptions defaults() {
        return new DiffOptions(Duration.ofMillis(500), 10_000, 1_000, 1_000_000, 1_000, 1_000, Duration.ofSeconds(2));
    }

    public DiffOptions withChunkRows(long first, long min, long max) {
        return new DiffOptions(chunkTime, first, min, max, narrowRows, maxReported, snapshotHold);
    }

    public DiffOptions withNarrowRows(int rows) {
        return new DiffOptions(chunkTime, firstChunkRows, minChunkRows, maxChunkRows, rows, maxReported, snapshotHold);
    }

    public DiffOptions withMaxReported(long rows) {
        return new DiffOptions(chunkTime, firstChunkRows, minChunkRows, maxChunkRows, narrowRows, rows, snapshotHold);
    }

    public DiffOptions withSnapshotHold(Duration hold) {
        return new DiffOptions(chunkTime, firstChunkRows, minChunkRows, maxChunkRows, narrowRows, maxReported, hold);
    }
}
