package io.shardgate.replication.diff;

import io.shardgate.replication.gtid.MariaDbGtidPosition;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.OptionalLong;

/**
 * One connection per server, each inside a consistent-snapshot read transaction, all at the same
 * position of the source: {@link #targets()} in the order the diff was given its targets. Closing ends
 * the transactions and releases the connections.
 */
public interface MatchedSnapshots extends AutoCloseable {

    Connection source();

    List<Connection> targets();

    /**
     * Every connection of each target in this set's snapshot, {@link #targets()}' first: a target nobody else writes
     * to (its stream stopped while they were opened) can read its part of a chunk over several connections at once.
     */
    default List<List<Connection>> targetLanes() {
        return targets().stream().map(List::of).toList();
    }

    /** When the set was opened, on the diff's nano clock, if it was opened before it was handed out ({@link SharedDiffPoints}). */
    default OptionalLong openedNanos() {
        return OptionalLong.empty();
    }

    /** The source's GTID position the snapshots stand at (empty when the source writes no binlog). */
    MariaDbGtidPosition position();

    @Override
    void close() throws SQLException;
}
