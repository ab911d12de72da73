package io.shardgate.proxy.config;

import io.shardgate.storage.Engine;

import java.util.List;

import static java.util.Objects.requireNonNull;

/** One shard: a primary and its replicas on one engine. */
public record ShardConfig(String name, Engine engine, HostPort primary, List<HostPort> replicas) {
    public ShardConfig {
        requireNonNull(name, "name is null");
        requireNonNull(engine, "engine is null");
        requireNonNull(primary, "primary is null");
        replicas = List.copyOf(requireNonNull(replicas, "replicas is null"));
    }
}
