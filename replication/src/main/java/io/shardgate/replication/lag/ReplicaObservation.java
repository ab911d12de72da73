package io.shardgate.replication.lag;

import io.shardgate.replication.gtid.MariaDbGtidPosition;

import java.util.OptionalLong;

import static java.util.Objects.requireNonNull;

/**
 * Everything the monitor knows about one replica, replaced as a whole after every poll and every
 * change of the primary timeline. Times are proxy-clock nanos.
 *
 * @param state            what the last poll found
 * @param applied          {@code @@gtid_slave_pos} at the last successful poll; kept through failures
 * @param lastSuccessNanos when the last successful poll was sent; meaningless while {@code samples} is 0
 * @param ioRunning        the IO thread ran at the last poll
 * @param sqlRunning       the SQL thread ran at the last poll
 * @param lastError        the replication error or poll failure of the last poll, empty when none
 * @param samples          successful polls so far
 * @param freshness        {@code applied} against the primary timeline, as last computed
 */
record ReplicaObservation(ReplicaState state, MariaDbGtidPosition applied, long lastSuccessNanos, boolean ioRunning,
                          boolean sqlRunning, String lastError, long samples, Freshness freshness) {
    private static final ReplicaObservation INITIAL = new ReplicaObservation(ReplicaState.UNKNOWN,
            MariaDbGtidPosition.empty(), 0, false, false, "", 0, Freshness.unknown());

    ReplicaObservation {
        requireNonNull(state, "state is null");
        requireNonNull(applied, "applied is null");
        requireNonNull(lastError, "lastError is null");
        requireNonNull(freshness, "freshness is null");
    }

    /** Before the first poll. */
    static ReplicaObservation initial() {
        return INITIAL;
    }

    /** After a successful poll sent at {@code sentNanos}; the caller then sets the freshness. */
    ReplicaObservation polled(long sentNanos, MariaDbGtidPosition position, ReplicationStatus status) {
        return new ReplicaObservation(status.state(), position, sentNanos, status.ioRunning(), status.sqlRunning(),
                status.error(), samples + 1, freshness);
    }

    /** After a failed poll: the position and the time of the last success stay as they were. */
    ReplicaObservation failed(ReplicaState failure, String error) {
        return new ReplicaObservation(failure, applied, lastSuccessNanos, false, false, error, samples, freshness);
    }

    ReplicaObservation withFreshness(Freshness next) {
        return new ReplicaObservation(state, applied, lastSuccessNanos, ioRunning, sqlRunning, lastError, samples, next);
    }

    /** Whether {@link #applied} is a real reading, worth keeping timeline entries for. */
    boolean hasPosition() {
        return samples > 0;
    }

    /**
     * The lag at {@code now}: infinite when the state cannot be measured or the last successful
     * poll started more than {@code staleAfterNanos} ago, else what the freshness says.
     */
    ReplicaLag toLag(String shard, MonitoredServer replica, long now, long staleAfterNanos) {
        long sinceSuccess = now - lastSuccessNanos;
        boolean current = samples > 0 && !state.isUnmeasurable() && sinceSuccess <= staleAfterNanos;
        OptionalLong lag = current ? freshness.lagMillis(now, staleAfterNanos) : OptionalLong.empty();
        OptionalLong age = samples > 0 ? OptionalLong.of(Math.max(0, sinceSuccess) / 1_000_000) : OptionalLong.empty();
        return new ReplicaLag(shard, replica, state, lag, applied, lastError, age, ioRunning, sqlRunning, samples);
    }
}
