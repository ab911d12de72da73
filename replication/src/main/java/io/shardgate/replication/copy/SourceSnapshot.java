package io.shardgate.replication.copy;

import io.shardgate.replication.gtid.SnapshotPoint;
import io.shardgate.replication.stream.ServerEndpoint;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * A consistent snapshot of the source primary and the exact GTID position it shows:
 * {@link io.shardgate.replication.diff.SnapshotGtid#begin}: {@code START TRANSACTION WITH CONSISTENT SNAPSHOT}, then the
 * session's {@code Binlog_snapshot_file}/{@code Binlog_snapshot_position} (MariaDB takes them with the snapshot) turned
 * into a GTID position with {@code BINLOG_GTID_POS}, with its lookback for XA transactions in flight. Chunks read in it return
 * stored bytes ({@link ColumnCodec}; the session has {@code time_zone='+00:00'}).
 */
final class SourceSnapshot implements AutoCloseable {
    private final Connection connection;
    private final SnapshotPoint position;
    private final long openedNanos = System.nanoTime();

    private SourceSnapshot(Connection connection, SnapshotPoint position) {
        this.connection = connection;
        this.position = position;
    }

    static SourceSnapshot open(ServerEndpoint source) {
        Connection connection = null;
        try {
            connection = source.connect("useServerPrepStmts=false&yearIsDateType=false&tinyInt1isBit=false");
            try (Statement statement = connection.createStatement()) {
                statement.execute("SET SESSION time_zone = '+00:00', max_statement_time = 0, net_write_timeout = 600");
            }
            SnapshotPoint position = io.shardgate.replication.diff.SnapshotGtid.begin(connection);
            if (position.isEmpty()) {
                throw new CopyException("source " + source.address() + " has no binary log: the copy needs"
                        + " log_bin to catch up and stream");
            }
            return new SourceSnapshot(connection, position);
        } catch (SQLException e) {
            closeQuietly(connection);
            throw new CopyException("cannot open a consistent snapshot on source " + source.address() + ": "
                    + e.getMessage(), e);
        } catch (RuntimeException e) {
            closeQuietly(connection);
            throw e;
        }
    }

    /** Where every row this snapshot shows is current, and where a stream going on from it reads from. */
    SnapshotPoint position() {
        return position;
    }

    long ageMillis() {
        return (System.nanoTime() - openedNanos) / 1_000_000;
    }

    /** Up to {@code limit} rows after {@code last} in key order (from the start when {@code last} is empty). */
    List<Object[]> chunk(TableShape shape, List<PkValue> last, int limit) throws SQLException {
        List<Object[]> rows = new ArrayList<>(Math.min(limit, 1 << 16));
        int width = shape.names().size();
        boolean[] binary = new boolean[width];
        for (int i = 0; i < width; i++) {
            binary[i] = shape.codecs().get(i).readsBytes();
        }
        try (Statement statement = connection.createStatement()) {
            statement.setEscapeProcessing(false);
            try (ResultSet result = statement.executeQuery(shape.chunkQuery(last.isEmpty() ? null : last, limit))) {
                while (result.next()) {
                    Object[] row = new Object[width];
                    for (int i = 0; i < width; i++) {
                        row[i] = binary[i] ? result.getBytes(i + 1) : result.getString(i + 1);
                    }
                    rows.add(row);
                }
            }
        }
        return rows;
    }

    /** The engine's estimate of the table's rows ({@code information_schema.TABLES}). */
    long estimateRows(CopyTable table) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement("SELECT TABLE_ROWS FROM information_schema.TABLES"
                + " WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?")) {
            statement.setString(1, table.schema());
            statement.setString(2, table.table());
            try (ResultSet rows = statement.executeQuery()) {
                return rows.next() ? rows.getLong(1) : 0;
            }
        }
    }

    private static void closeQuietly(Connection connection) {
        if (connection != null) {
            try {
                connection.close();
            } catch (SQLException ignored) {
                // Already broken.
            }
        }
    }

    @Override
    public void close() {
        try {
            connection.rollback();
        } catch (SQLException ignored) {
            // Closing ends the transaction anyway.
        }
        closeQuietly(connection);
    }
}
