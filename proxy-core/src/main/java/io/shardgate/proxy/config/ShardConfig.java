package io.shardgate.proxy.config;

import io.shardgate.storage.Engine;

import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * One shard: a primary and its replicas on one engine, owning {@code keyRange} of the keyspace
 * (Vitess-style hex bounds; empty when not configured).
 */
public record ShardConfig(String name, Engine engine, HostPort primary, List<HostPort> replicas, String keyRange) {
    public ShardConfig(String name, Engine engine, HostPort primary, List<HostPort> replicas) {
        this(name, engine, primary, replicas, "");
    }

    public ShardConfig {
        requireNonNull(keyRange, "keyRange is null");
        requireNonNull(name, "name is null");
        requireNonNull(engine, "engine is null");
        requireNonNull(primary, "primary is null");
        replicas = List.copyOf(requireNonNull(replicas, "replicas is null"));
    }
}
