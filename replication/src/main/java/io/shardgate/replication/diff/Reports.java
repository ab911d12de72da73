package io.shardgate.replication.diff;

import static java.util.Objects.requireNonNull;

/**
 * Counts differing rows and hands the first {@code maxReported} of the whole diff (the count carries over
 * a resume) to the sink. Once that many are found, differing ranges are counted without being narrowed. Thread-safe: the ownership check reports from the diff's worker threads, one at a
 * time.
 */
final class Reports {
    private final DiffSink sink;
    private final long maxReported;
    private long count;

    Reports(DiffSink sink, long maxReported, long alreadyFound) {
        this.sink = requireNonNull(sink, "sink is null");
        this.maxReported = maxReported;
        this.count = alreadyFound;
    }

    synchronized void report(Mismatch mismatch) {
        if (count++ < maxReported) {
            sink.mismatch(mismatch);
        }
    }

    /** Whether as many rows were found as may be reported: from then on differing ranges are only counted. */
    synchronized boolean full() {
        return count >= maxReported;
    }

    /** A differing range that is not narrowed to its rows counts as this many differing rows. */
    synchronized void countRange(long rows) {
        count += rows;
    }

    synchronized long count() {
        return count;
    }
}
