package io.shardgate.proxy.sharding;

/**
 * What a sharded statement did, for the session: the insert id it reported (0: none), the error
 * number of a shard's ERR relayed to the client as it was (0: none), and the session's status flags
 * after it.
 */
public record StatementOutcome(long lastInsertId, int relayedErrno, int status) {
}
