package io.shardgate.proxy.sharding.xa;

import io.shardgate.proxy.backend.BackendConnection;

import java.util.Map;

/**
 * How a sharded session's transaction commits across shards with XA: each branch starts with the
 * statement {@link Global#startSql} gives, and {@link Global#commit} runs two-phase commit (one
 * phase for a single branch) with the decision logged durably before any branch commits.
 */
public interface XaTransactions {

    /** A new global transaction. */
    Global begin();

    /** One global transaction; its methods block the calling (plan worker) thread. */
    interface Global {

        /** Starts this transaction's branch on {@code shard} over {@code connection} (XA START). */
        java.util.concurrent.CompletableFuture<Void> start(String shard, BackendConnection connection);

        /**
         * Commits every branch, atomically across them; throws when the transaction was rolled back
         * instead. Returns the GTID each branch's commit got, by shard (a shard whose server reported
         * none, or whose commit recovery finishes, is absent).
         */
        Map<String, String> commit(Map<String, BackendConnection> branches);

        /** Rolls every branch back. */
        void rollback(Map<String, BackendConnection> branches);
    }
}
