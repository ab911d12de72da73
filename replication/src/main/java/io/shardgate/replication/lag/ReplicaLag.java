package io.shardgate.replication.lag;

import io.shardgate.replication.gtid.MariaDbGtidPosition;

import java.util.OptionalLong;

import static java.util.Objects.requireNonNull;

/**
 * One replica's lag as the monitor saw it at one moment. Immutable.
 *
 * @param shard               the shard the replica belongs to
 * @param replica             the replica
 * @param state               what its last poll found
 * @param lagMillis           an upper bound on its staleness in milliseconds on the proxy's clock;
 *                            0 means it has applied everything the proxy knows the primary committed;
 *                            empty means infinitely stale (unreachable, not polled recently, or behind
 *                            writes older than anything the monitor saw)
 * @param appliedPosition     its {@code @@gtid_slave_pos} at the last successful poll (empty before one)
 * @param lastError           the replication error or the poll failure of the last poll, empty when none
 * @param sinceLastPollMillis time since the last successful poll started; empty before one
 * @param ioThreadRunning     {@code Slave_IO_Running} was {@code Yes} at the last poll
 * @param sqlThreadRunning    {@code Slave_SQL_Running} was {@code Yes} at the last poll
 * @param samples             successful polls so far
 */
public record ReplicaLag(String shard, MonitoredServer replica, ReplicaState state, OptionalLong lagMillis,
                         MariaDbGtidPosition appliedPosition, String lastError, OptionalLong sinceLastPollMillis,
                         boolean ioThreadRunning, boolean sqlThreadRunning, long samples) {
    public ReplicaLag {
        requireNonNull(shard, "shard is null");
        requireNonNull(replica, "replica is null");
        requireNonNull(state, "state is null");
        requireNonNull(lagMillis, "lagMillis is null");
        requireNonNull(appliedPosition, "appliedPosition is null");
        requireNonNull(lastError, "lastError is null");
        requireNonNull(sinceLastPollMillis, "sinceLastPollMillis is null");
    }

    /** No usable measurement: the replica must not serve a read with any freshness budget. */
    public boolean isInfinitelyStale() {
        return lagMillis.isEmpty();
    }

    /** True when the measured lag is at most {@code maxLagMillis} ({@code 0}: fully caught up). */
    public boolean fitsLagBudget(long maxLagMillis) {
        return lagMillis.isPresent() && lagMillis.getAsLong() <= maxLagMillis;
    }

    @Override
    public String toString() {
        return shard + "/" + replica + " " + state + " lag " + (lagMillis.isPresent() ? lagMillis.getAsLong() + " ms" : "infinite")
                + " at " + appliedPosition + (lastError.isEmpty() ? "" : " (" + lastError + ")");
    }
}
