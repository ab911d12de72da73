package io.shardgate.replication.diff;

import io.shardgate.replication.gtid.MariaDbGtidPosition;
import io.shardgate.replication.gtid.SnapshotPoint;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static java.util.Objects.requireNonNull;

/**
 * Consistent snapshots and the GTID they stand at, on MariaDB. {@code START TRANSACTION WITH CONSISTENT
 * SNAPSHOT} fixes the session's view and the binlog position it matches, which the session's status
 * {@code Binlog_snapshot_file} / {@code Binlog_snapshot_position} show; {@code BINLOG_GTID_POS(file, pos)}
 * turns that into the exact GTID position: every transaction up to it is in the snapshot, none after.
 */
public final class SnapshotGtid {
    static final java.time.Duration XA_WAIT = java.time.Duration.ofSeconds(30);

    private SnapshotGtid() {
    }

    /**
     * Starts a read-only consistent-snapshot transaction (repeatable read) on {@code connection} and returns the source
     * GTID position it sees, with where a change stream going on from it must read from ({@link SnapshotPoint}); empty
     * when the server writes no binlog.
     *
     * <p>The lookback is the binlog's end read first. XA transactions prepared before it may still be prepared when the
     * snapshot is taken; so the sessions then running XA PREPARE are waited for, then every XA transaction XA RECOVER
     * lists, until each has ended (for at most {@link #XA_WAIT}). Any XA transaction still prepared at the snapshot was
     * then prepared after the lookback. Each waits for a few transactions to end, not for a moment when none is in
     * flight, so it ends under sustained cross-shard XA traffic too.
     */
    public static SnapshotPoint begin(Connection connection) throws SQLException {
        requireNonNull(connection, "connection is null");
        MariaDbGtidPosition lookback = binlogEnd(connection);
        long deadline = System.nanoTime() + XA_WAIT.toNanos();
        Set<List<String>> preparing = xaPreparing(connection);
        await(connection, "running XA PREPARE", preparing, SnapshotGtid::xaPreparing, deadline);
        Set<List<String>> prepared = xaPrepared(connection);
        await(connection, "prepared", prepared, SnapshotGtid::xaPrepared, deadline);
        beginSnapshot(connection);
        MariaDbGtidPosition position = position(connection);
        if (position.isEmpty() || !position.hasReached(lookback)) {
            return SnapshotPoint.at(position);
        }
        return SnapshotPoint.of(position, lookback);
    }

    private interface Lister {
        Set<List<String>> list(Connection connection) throws SQLException;
    }

    /** Waits until none of {@code waited} is listed by {@code lister} any more. */
    private static void await(Connection connection, String what, Set<List<String>> waited, Lister lister, long deadline)
            throws SQLException {
        for (int attempt = 1; !waited.isEmpty(); attempt++) {
            waited.retainAll(lister.list(connection));
            if (waited.isEmpty()) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new SQLException(waited.size() + " XA transactions stayed " + what + " for "
                        + XA_WAIT.toSeconds() + " s (" + waited + "): a consistent snapshot waits for the XA transactions"
                        + " prepared before it began to end, so that a change stream going on from it reads their PREPARE"
                        + " (XA RECOVER lists the prepared ones; an orphan is ended by its coordinator's recovery)");
            }
            try {
                Thread.sleep(Math.min(attempt, 20));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new SQLException("interrupted while waiting for prepared XA transactions to end", e);
            }
        }
    }

    /** The sessions running XA PREPARE now, each as (connection id, query id). */
    private static Set<List<String>> xaPreparing(Connection connection) throws SQLException {
        Set<List<String>> found = new HashSet<>();
        try (Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT ID, QUERY_ID FROM information_schema.PROCESSLIST"
                     + " WHERE ID <> CONNECTION_ID() AND INFO LIKE '%XA PREPARE%' AND INFO NOT LIKE '%information_schema%'")) {
            while (rows.next()) {
                found.add(List.of(rows.getString(1), rows.getString(2)));
            }
        }
        return found;
    }

    /** The XA transactions prepared on the server and not yet ended (from any session), by XA id. */
    private static Set<List<String>> xaPrepared(Connection connection) throws SQLException {
        Set<List<String>> found = new HashSet<>();
        try (Statement statement = connection.createStatement(); ResultSet rows = statement.executeQuery("XA RECOVER")) {
            int columns = rows.getMetaData().getColumnCount();
            while (rows.next()) {
                List<String> id = new ArrayList<>(columns);
                for (int i = 1; i <= columns; i++) {
                    id.add(rows.getString(i));
                }
                found.add(List.copyOf(id));
            }
        }
        return found;
    }

    /** The end of the server's binlog now ({@code @@gtid_binlog_pos}). */
    private static MariaDbGtidPosition binlogEnd(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT @@GLOBAL.gtid_binlog_pos")) {
            String text = rows.next() ? rows.getString(1) : null;
            return text == null || text.isEmpty() ? MariaDbGtidPosition.empty() : MariaDbGtidPosition.parse(text);
        }
    }

    /**
     * A consistent snapshot and its position, not waiting for XA transactions: for matched snapshots of servers whose
     * streams do not go on from this position.
     */
    public static MariaDbGtidPosition beginAt(Connection connection) throws SQLException {
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
