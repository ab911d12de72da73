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

    private static final System.Logger LOG = System.getLogger(SnapshotGtid.class.getName());
    static final java.time.Duration XA_QUIET_WAIT = java.time.Duration.ofSeconds(30);

    private SnapshotGtid() {
    }

    /**
     * Starts a read-only consistent-snapshot transaction (repeatable read) on {@code connection} and
     * returns the source GTID position it sees; empty when the server writes no binlog. The position is one where no
     * XA transaction was prepared and not yet ended: its PREPARE would lie before it and its COMMIT after, and a change
     * stream started there could not apply it. The snapshot is taken again until, after it, no session runs XA PREPARE,
     * XA RECOVER lists none, and no XA COMMIT or ROLLBACK ran since just before it (for at most
     * {@link #XA_QUIET_WAIT}).
     */
    public static MariaDbGtidPosition begin(Connection connection) throws SQLException {
        long started = System.nanoTime();
        for (int attempt = 1; ; attempt++) {
            long ended = xaEnds(connection);
            beginSnapshot(connection);
            MariaDbGtidPosition position = position(connection);
            // In this order: an XA transaction in its PREPARE when the snapshot was taken is still preparing, or prepared,
            // or ended since (counted), at each check after.
            if (!xaPreparing(connection) && !xaPrepared(connection) && xaEnds(connection) == ended) {
                if (attempt > 1) {
                    LOG.log(attempt > 10 ? System.Logger.Level.INFO : System.Logger.Level.DEBUG, "a consistent snapshot at " + position
                            + " after " + attempt + " tries: XA transactions were between PREPARE and COMMIT at the others");
                }
                return position;
            }
            end(connection);
            if (System.nanoTime() - started > XA_QUIET_WAIT.toNanos()) {
                throw new SQLException("no moment without an XA transaction between its PREPARE and its COMMIT in "
                        + attempt + " snapshots over " + XA_QUIET_WAIT.toSeconds() + " s: a change stream started at such a"
                        + " position could not apply it (XA RECOVER lists the prepared ones; sustained cross-shard XA"
                        + " traffic on this shard leaves none)");
            }
            try {
                Thread.sleep(Math.min(attempt, 5));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new SQLException("interrupted while waiting for a snapshot without an XA transaction in flight", e);
            }
        }
    }

    /** A session runs XA PREPARE now (its binlog group may be written before the snapshot, its state not yet shown). */
    private static boolean xaPreparing(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT COUNT(*) FROM information_schema.PROCESSLIST"
                     + " WHERE ID <> CONNECTION_ID() AND INFO LIKE '%XA PREPARE%' AND INFO NOT LIKE '%information_schema%'")) {
            return rows.next() && rows.getLong(1) > 0;
        }
    }

    /** XA transactions prepared on the server and not yet ended (from any session). */
    private static boolean xaPrepared(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement(); ResultSet rows = statement.executeQuery("XA RECOVER")) {
            return rows.next();
        }
    }

    /** How many XA COMMIT and XA ROLLBACK statements the server ran since it started. */
    private static long xaEnds(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT COALESCE(SUM(VARIABLE_VALUE), 0) FROM information_schema.GLOBAL_STATUS"
                     + " WHERE VARIABLE_NAME IN ('COM_XA_COMMIT', 'COM_XA_ROLLBACK')")) {
            return rows.next() ? rows.getLong(1) : 0;
        }
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
