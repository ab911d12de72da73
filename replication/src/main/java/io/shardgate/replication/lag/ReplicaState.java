package io.shardgate.replication.lag;

/**
 * What the monitor knows about a replica's replication, declared from the healthiest to the
 * least known. For the first four the lag is measured from the GTID positions whatever the
 * state: a stopped replica that has applied everything while the primary is idle is as fresh as
 * any. For the last two the lag is infinite.
 */
public enum ReplicaState {
    /** Both replication threads run and report no error. A blocked SQL thread looks like this too; the lag tells. */
    HEALTHY,
    /** The IO thread is not running ({@code No}, or still {@code Connecting}): nothing new arrives from the primary. */
    IO_THREAD_STOPPED,
    /** The SQL thread is stopped: events may arrive but are not applied. */
    SQL_THREAD_STOPPED,
    /** {@code Last_Errno}, {@code Last_SQL_Errno} or {@code Last_IO_Errno} is set. */
    REPLICATION_ERROR,
    /** The server answers but replicates from nowhere ({@code SHOW ALL SLAVES STATUS} is empty). */
    NOT_A_REPLICA,
    /** The last poll failed (connection refused, timed out, or an error); the lag is infinite. */
    UNREACHABLE,
    /** Not polled successfully yet; the lag is infinite. */
    UNKNOWN;

    /** True when no lag can be measured in this state, whatever the positions say. */
    public boolean isUnmeasurable() {
        return this == UNREACHABLE || this == UNKNOWN;
    }

    /** The less healthy of the two, for a replica with several replication connections. */
    ReplicaState worse(ReplicaState other) {
        return other.ordinal() > ordinal() ? other : this;
    }
}
