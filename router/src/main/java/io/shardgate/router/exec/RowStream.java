package io.shardgate.router.exec;

import java.util.List;

/**
 * A statement's result, read row by row: a shard's result set, or a merge operator over other
 * streams. A write's result is a stream without columns or rows whose {@link #completion()} says
 * what happened. Pull-based: {@link #next()} may block until the shard sends more.
 */
public interface RowStream extends AutoCloseable {

    /** The result columns; empty for a write. Known before the first row. */
    List<ColumnMeta> columns();

    /** The next row, or {@code null} at the end. */
    Row next();

    /** The result's OK/EOF summary; complete once {@link #next()} has returned {@code null}. */
    default Completion completion() {
        return Completion.NONE;
    }

    /** Stops reading (cancelling unread shard results); idempotent. */
    @Override
    void close();
}
