package io.shardgate.proxy.sharding;

import io.shardgate.proxy.backend.BackendConnection;
import io.shardgate.proxy.execution.ShardOk;

import java.util.concurrent.CompletableFuture;

/**
 * Runs a statement that may commit (COMMIT, XA COMMIT) on a shard connection and reads the GTID the
 * server gave the commit from its OK packet's session state ({@code last_gtid}, which every shard
 * connection tracks). That GTID is what the session's causal position on the shard needs, so that
 * its later reads, or another connection's with its token, see the commit on a replica.
 */
final class CommitGtid {
    private CommitGtid() {
    }

    /** Completes with the GTID the OK reported (null when none, e.g. nothing was written) or fails on ERR. */
    static CompletableFuture<String> run(BackendConnection connection, String sql) {
        return connection.queryOk(sql, ok -> ShardOk.of(connection, ok).lastGtid());
    }
}
