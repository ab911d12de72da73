package io.shardgate.replication.diff;

import io.shardgate.replication.gtid.MariaDbGtidPosition;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

/**
 * One connection per server, each inside a consistent-snapshot read transaction, all at the same
 * position of the source: {@link #targets()} in the order the diff was given its targets. Closing ends
 * the transactions and releases the connections.
 */
public interface MatchedSnapshots extends AutoCloseable {

    Connection source();

    List<Connection> targets();

    /** The source's GTID position the snapshots stand at (empty when the source writes no binlog). */
    MariaDbGtidPosition position();

    @Override
    void close() throws SQLException;
}
