package io.shardgate.replication.copy;

import io.shardgate.replication.stream.ServerEndpoint;
import io.shardgate.router.shard.KeyRange;
import io.shardgate.storage.Engine;

import static java.util.Objects.requireNonNull;

/**
 * A server that receives the rows whose keyspace id is in {@code range}.
 *
 * @param name     the shard's name, for messages and progress
 * @param endpoint the target's primary
 * @param range    the key range it owns ({@code -} for a whole-table move)
 * @param engine   the engine its tables live in (the source's DDL is translated for it)
 */
public record CopyTarget(String name, ServerEndpoint endpoint, KeyRange range, Engine engine) {
    public CopyTarget {
        requireNonNull(name, "name is null");
        requireNonNull(endpoint, "endpoint is null");
        requireNonNull(range, "range is null");
        requireNonNull(engine, "engine is null");
    }
}
