package io.shardgate.proxy.sharding;

/**
 * What a sharded statement did, for the session: the insert id it reported (0: none), whether it
 * failed, and the session's status flags after it.
 */
public record StatementOutcome(long lastInsertId, boolean failed, int status) {
}
