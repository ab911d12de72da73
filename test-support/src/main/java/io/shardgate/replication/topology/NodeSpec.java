package io.shardgate.replication.topology;

import io.shardgate.storage.Engine;

import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * One server to launch. {@code options} are the complete mariadbd options except the ones a
 * launcher owns (data directory, port, socket, files).
 */
public record NodeSpec(String name, String shard, NodeRole role, int serverId, Engine engine,
                       Map<String, String> options) {
    public NodeSpec {
        requireNonNull(name, "name is null");
        requireNonNull(shard, "shard is null");
        requireNonNull(role, "role is null");
        requireNonNull(engine, "engine is null");
        options = Map.copyOf(requireNonNull(options, "options is null"));
    }
}
