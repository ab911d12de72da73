package io.shardgate.replication.lag;

import io.shardgate.replication.gtid.MariaDbGtidPosition;
import io.shardgate.storage.health.ControlConnection;

import java.sql.SQLException;
import java.util.function.LongSupplier;

import static java.util.Objects.requireNonNull;

/**
 * Reads the primary's {@code @@gtid_binlog_pos} into the shard's timeline, stamped with the
 * time the query was sent. A failed poll records nothing: the timeline then ages, and once the
 * last successful poll is older than the stale limit, caught-up replicas stop reporting 0.
 */
final class PrimaryProbe extends Probe {
    private final LongSupplier clock;
    private final ShardLagTracker tracker;

    PrimaryProbe(LagMonitorSettings settings, LongSupplier clock, ShardLagTracker tracker) {
        super(settings);
        this.clock = requireNonNull(clock, "clock is null");
        this.tracker = requireNonNull(tracker, "tracker is null");
    }

    @Override
    void poll(ControlConnection connection) {
        long sent = clock.getAsLong();
        try {
            String position = query(connection, c -> queryString(c, "SELECT @@GLOBAL.gtid_binlog_pos"));
            tracker.primaryPolled(sent, MariaDbGtidPosition.parse(position));
        } catch (SQLException | RuntimeException e) {
            // Nothing to record; the stale limit turns the silence into growing lag.
        }
    }
}
