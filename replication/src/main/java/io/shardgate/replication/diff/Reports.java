package io.shardgate.replication.diff;

import static java.util.Objects.requireNonNull;

/**
 * Counts differing rows and hands the first {@code maxReported} of the whole diff (the count carries over
 * a resume) to the sink. Thread-safe: the ownership check reports from the diff's worker threads, one at a
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

    synchronized long count() {
        return count;
    }
}
