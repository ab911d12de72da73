package io.shardgate.replication.lag;

import io.shardgate.replication.gtid.MariaDbGtidPosition;
import io.shardgate.storage.health.ControlConnection;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;

import static java.util.Objects.requireNonNull;

/**
 * Reads one replica's applied position ({@code @@gtid_slave_pos}) and its replication threads
 * ({@code SHOW ALL SLAVES STATUS}) and reports them, stamped with the time the first query was
 * sent: the position is at least what it was then. A failed connection or query makes the
 * replica {@link ReplicaState#UNREACHABLE}; anything else that goes wrong (an unreadable
 * position) makes it {@link ReplicaState#UNKNOWN}. Both count as infinitely stale.
 *
 * <p>After a poll that starts a new second of {@code wallClock} (epoch ms), the lag the tracker then reports goes
 * into the replica's {@link LagHistory}: the history costs no query and no thread of its own.
 */
final class ReplicaProbe extends Probe {
    private final MonitoredServer replica;
    private final LongSupplier clock;
    private final ShardLagTracker tracker;
    private final LongSupplier wallClock;
    private final LagHistory history = new LagHistory(LagHistory.DEFAULT_CAPACITY);

    ReplicaProbe(MonitoredServer replica, LagMonitorSettings settings, LongSupplier clock, LongSupplier wallClock,
                 ShardLagTracker tracker) {
        super(settings);
        this.replica = requireNonNull(replica, "replica is null");
        this.clock = requireNonNull(clock, "clock is null");
        this.wallClock = requireNonNull(wallClock, "wallClock is null");
        this.tracker = requireNonNull(tracker, "tracker is null");
    }

    /** This replica's lag, one sample a second. */
    LagHistory history() {
        return history;
    }

    private record Reading(MariaDbGtidPosition applied, ReplicationStatus status) {
    }

    @Override
    void poll(ControlConnection connection) {
        long sent = clock.getAsLong();
        try {
            Reading reading = query(connection, ReplicaProbe::read);
            tracker.replicaPolled(replica, sent, reading.applied(), reading.status());
        } catch (SQLException e) {
            tracker.replicaFailed(replica, ReplicaState.UNREACHABLE, describe(e));
        } catch (RuntimeException e) {
            tracker.replicaFailed(replica, ReplicaState.UNKNOWN, describe(e));
        }
        sample();
    }

    /** The lag now into the history, at the first poll of a second. */
    private void sample() {
        long now = wallClock.getAsLong();
        if (!history.due(now)) {
            return;
        }
        try {
            history.record(now, tracker.status(replica, clock.getAsLong()).lagMillis().orElse(LagHistory.UNKNOWN));
        } catch (IllegalArgumentException removed) {
            // The monitor stopped measuring this replica while this poll ran: nothing left to record.
        }
    }

    private static Reading read(Connection connection) throws SQLException {
        MariaDbGtidPosition applied = MariaDbGtidPosition.parse(
                queryString(connection, "SELECT @@GLOBAL.gtid_slave_pos"));
        List<Map<String, String>> rows = new ArrayList<>();
        try (Statement statement = connection.createStatement();
             ResultSet result = statement.executeQuery("SHOW ALL SLAVES STATUS")) {
            ResultSetMetaData columns = result.getMetaData();
            while (result.next()) {
                Map<String, String> row = new HashMap<>();
                for (int i = 1; i <= columns.getColumnCount(); i++) {
                    row.put(columns.getColumnLabel(i), result.getString(i));
                }
                rows.add(row);
            }
        }
        return new Reading(applied, ReplicationStatus.of(rows));
    }

    private static String describe(Exception e) {
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }
}
