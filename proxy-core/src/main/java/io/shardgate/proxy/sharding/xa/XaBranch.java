package io.shardgate.proxy.sharding.xa;

import java.util.concurrent.CompletableFuture;

/**
 * One shard's part of a cross-shard transaction, on the backend connection that runs it (the
 * data path adapts a {@code BackendConnection}). {@link #run} sends one statement and completes
 * when the server answered OK, exceptionally on an ERR or a lost connection.
 */
public interface XaBranch {

    /** The shard this branch runs on; it is also the branch's bqual. */
    String shard();

    /** Runs one statement on the branch's connection. */
    CompletableFuture<Void> run(String sql);
}
