package io.shardgate.storage.it;

import io.shardgate.replication.topology.Node;
import io.shardgate.replication.topology.Topology;
import io.shardgate.replication.topology.TopologySpec;
import io.shardgate.storage.BackendEndpoint;
import io.shardgate.storage.CapabilityProbe;
import io.shardgate.storage.Engine;
import io.shardgate.storage.StorageAdapters;
import io.shardgate.storage.capability.EngineCapabilities;
import io.shardgate.storage.capability.ServerFactsReader;

import java.sql.SQLException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * The fixture of the engine ITs: shard s0 on InnoDB and shard s1 on MyRocks, one primary each,
 * with each server's capabilities probed once at start. One per test class.
 */
final class EngineShards implements AutoCloseable {
    private final Topology topology;
    private final StorageAdapters adapters;
    private final Map<Engine, EngineCapabilities> capabilities = new HashMap<>();

    private EngineShards(Topology topology, StorageAdapters adapters) {
        this.topology = topology;
        this.adapters = adapters;
    }

    static EngineShards start() {
        return start(Map.of());
    }

    /** With extra server options for both nodes (prefix MyRocks-only ones with {@code loose-}). */
    static EngineShards start(Map<String, String> serverOptions) {
        requireNonNull(serverOptions, "serverOptions is null");
        TopologySpec.Builder spec = TopologySpec.builder()
                .shard("s0", Engine.INNODB, 0)
                .shard("s1", Engine.ROCKSDB, 0);
        serverOptions.forEach(spec::serverOption);
        EngineShards shards = new EngineShards(Topology.start(spec.build()),
                StorageAdapters.load(EngineShards.class.getClassLoader()));
        try {
            CapabilityProbe probe = new CapabilityProbe(shards.adapters, new ServerFactsReader(),
                    Duration.ofSeconds(2), Duration.ofSeconds(30));
            for (Engine engine : List.of(Engine.INNODB, Engine.ROCKSDB)) {
                shards.capabilities.put(engine, probe.probe(shards.backend(engine)));
            }
            return shards;
        } catch (SQLException | RuntimeException e) {
            shards.close();
            throw new IllegalStateException("cannot probe the fixture's servers: " + e.getMessage(), e);
        }
    }

    Topology topology() {
        return topology;
    }

    StorageAdapters adapters() {
        return adapters;
    }

    Node node(Engine engine) {
        return topology.shard(engine.equals(Engine.INNODB) ? "s0" : "s1").primary();
    }

    Node innodb() {
        return node(Engine.INNODB);
    }

    Node rocksdb() {
        return node(Engine.ROCKSDB);
    }

    EngineCapabilities capabilities(Engine engine) {
        return capabilities.get(engine);
    }

    /** The node of {@code engine} as a backend of its own shard. */
    BackendEndpoint backend(Engine engine) {
        return Backends.of(topology, node(engine));
    }

    @Override
    public void close() {
        topology.close();
    }
}
