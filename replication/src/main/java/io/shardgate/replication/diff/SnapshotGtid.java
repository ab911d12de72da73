package io.shardgate.replication.diff;

import io.shardgate.replication.gtid.MariaDbGtidPosition;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import static java.util.Objects.requireNonNull;

/**
 * Consistent snapshots and the GTID they stand at, on MariaDB. {@code START TRANSACTION WITH CONSISTENT
 * SNAPSHOT} fixes the session's view and the binlog position it matches, which the session's status
 * {@code Binlog_snapshot_file} / {@code Binlog_snapshot_position} show; {@code BINLOG_GTID_POS(file, pos)}
 * turns that into the exact GTID position: every transaction up to it is in the snapshot, none after.
 */
public final class SnapshotGtid {

    private SnapshotGtid() {
    }

    /**
     * Starts a read-only consistent-snapshot transaction (repeatable read) on {@code connection} and
     * returns the source GTID position it sees; empty when the server writes no binlog.
     */
    public static MariaDbGtidPosition begin(Connection connection) throws SQLException {
        beginSnapshot(connection);
        return position(connection);
    }

    /** Starts a read-only consistent-snapshot transaction (repeatable read) on {@code connection}. */
    public static void beginSnapshot(Connection connection) throws SQLException {
        requireNonNull(connection, "connection is null");
        if (!connection.getAutoCommit()) {
            connection.setAutoCommit(true);
        }
        try (Statement statement = connection.createStatement()) {
            statement.execute("SET SESSION TRANSACTION ISOLATION LEVEL REPEATABLE READ");
            statement.execute("START TRANSACTION WITH CONSISTENT SNAPSHOT, READ ONLY");
        }
    }

    /** The GTID position of the consistent snapshot this session started last; empty without a binlog. */
    public static MariaDbGtidPosition position(Connection connection) throws SQLException {
        requireNonNull(connection, "connection is null");
        String file = null;
        long position = -1;
        try (Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SHOW SESSION STATUS LIKE 'Binlog_snapshot_%'")) {
            while (rows.next()) {
                String name = rows.getString(1);
                String value = rows.getString(2);
                if ("Binlog_snapshot_file".equalsIgnoreCase(name)) {
                    file = value;
                } else if ("Binlog_snapshot_position".equalsIgnoreCase(name) && value != null && !value.isEmpty()) {
                    position = Long.parseLong(value);
                }
            }
        }
        if (file == null || file.isEmpty() || position < 0) {
            return MariaDbGtidPosition.empty();
        }
        try (PreparedStatement statement = connection.prepareStatement("SELECT BINLOG_GTID_POS(?, ?)")) {
            statement.setString(1, file);
            statement.setLong(2, position);
            try (ResultSet rows = statement.executeQuery()) {
                String gtid = rows.next() ? rows.getString(1) : null;
                return gtid == null ? MariaDbGtidPosition.empty() : MariaDbGtidPosition.parse(gtid);
            }
        }
    }

    /** Ends the snapshot transaction, if any. */
    public static void end(Connection connection) throws SQLException {
        requireNonNull(connection, "connection is null");
        try (Statement statement = connection.createStatement()) {
            statement.execute("ROLLBACK");
        }
    }
}
