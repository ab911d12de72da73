package io.shardgate.router.classify;

/** Where {@link ReadWriteDecision} sends a statement. */
public enum Target {
    PRIMARY,
    /** Any replica within the lag limit. */
    REPLICA,
    /** The backend the open transaction is bound to (the primary, or the replica of a read-only transaction). */
    SAME_AS_TRANSACTION,
    /** Nowhere now: the session records the setting and replays it on whichever backend it uses next. */
    TRACKED
}
