package io.shardgate.replication.topology;

import io.shardgate.storage.Engine;

import java.util.List;

import static java.util.Objects.requireNonNull;

/** A started shard: its primary and replicas. */
public record Shard(String name, Engine engine, Node primary, List<Node> replicas) {
    public Shard {
        requireNonNull(name, "name is null");
        requireNonNull(engine, "engine is null");
        requireNonNull(primary, "primary is null");
        replicas = List.copyOf(requireNonNull(replicas, "replicas is null"));
    }

    public Node replica(int index) {
        return replicas.get(index);
    }
}
