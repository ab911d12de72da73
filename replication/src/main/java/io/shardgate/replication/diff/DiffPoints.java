package io.shardgate.replication.diff;

import java.sql.SQLException;

/**
 * Where a diff compares: each call opens one matched set of snapshots, the source and every target
 * read at the same position of the source's history. The caller implements it: a reshard or move job
 * pauses its change streams at the source snapshot's GTID ({@link SnapshotGtid}), opens the target
 * snapshots, then resumes. {@link QuiescedDiffPoints} serves servers nobody writes to.
 *
 * <p>A diff holds each set only for a bounded time (a few chunks), then closes it and opens another.
 */
@FunctionalInterface
public interface DiffPoints {

    /** A new matched set; the caller of this method closes it. */
    MatchedSnapshots open() throws SQLException;
}
