package io.shardgate.router.exec;

/**
 * The planner's hint of where within a shard a statement may run. proxy-core combines it with the
 * session through {@code ReadWriteDecision} (a transaction, a hint or a lag budget can still send a
 * {@code REPLICA} statement to the primary).
 */
public enum Role {
    /** Writes, DDL, locking reads and reads needing the primary. */
    PRIMARY,
    /** A plain read: a replica within the lag limit will do. */
    REPLICA
}
