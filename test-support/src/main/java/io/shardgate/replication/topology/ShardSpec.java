package io.shardgate.replication.topology;

import io.shardgate.storage.Engine;

import static java.util.Objects.requireNonNull;

/** One shard of a topology: a primary and {@code replicas} replicas, all on {@code engine}. */
public record ShardSpec(String name, Engine engine, int replicas) {
    public ShardSpec {
        requireNonNull(name, "name is null");
        requireNonNull(engine, "engine is null");
        if (!name.matches("[a-z0-9_]{1,32}")) {
            throw new IllegalArgumentException("shard name '" + name + "' must match [a-z0-9_]{1,32}");
        }
        if (replicas < 0 || replicas > 8) {
            throw new IllegalArgumentException("replicas: " + replicas + " (expected: 0..8)");
        }
    }
}
