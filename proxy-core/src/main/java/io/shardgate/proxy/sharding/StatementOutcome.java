package io.shardgate.proxy.sharding;

/**
 * What a sharded statement did, for the session: the insert id it reported (0: none), the error
 * number of a shard's ERR relayed to the client as it was (0: none), and the session's status flags
 * after it; for its digest ({@code io.shardgate.proxy.digest}), the rows it sent and affected and the
 * shards it ran on.
 */
public record StatementOutcome(long lastInsertId, int relayedErrno, int status, long rowsSent, long rowsAffected, int shards) {
    /** An outcome that does not say what it sent, affected or touched. */
    public StatementOutcome(long lastInsertId, int relayedErrno, int status) {
        this(lastInsertId, relayedErrno, status, 0, 0, 0);
    }
}
