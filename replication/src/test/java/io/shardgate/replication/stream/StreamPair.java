package io.shardgate.replication.stream;

import io.shardgate.replication.topology.Node;
import io.shardgate.replication.topology.Topology;
import io.shardgate.replication.topology.TopologySpec;
import io.shardgate.storage.Engine;

import java.util.Map;

/**
 * A source (InnoDB, binlog with {@code binlog_row_metadata=FULL} unless {@code serverOptions} say otherwise) and a target on {@code targetEngine}
 * in one topology, and a stream builder already pointed at both. Closing it stops both servers.
 */
final class StreamPair implements AutoCloseable {
    private final Topology topology;

    private StreamPair(Topology topology) {
        this.topology = topology;
    }

    static StreamPair start(Engine targetEngine, Map<String, String> serverOptions) {
        TopologySpec.Builder spec = TopologySpec.builder()
                .shard("src", Engine.INNODB, 0)
                .shard("dst", targetEngine, 0)
                .serverOption("binlog_row_metadata", "FULL");
        serverOptions.forEach(spec::serverOption);
        return new StreamPair(Topology.start(spec.build()));
    }

    Topology topology() {
        return topology;
    }

    Node source() {
        return topology.shard("src").primary();
    }

    Node target() {
        return topology.shard("dst").primary();
    }

    /** A builder with the source and target set; the caller adds positions, workers, filters. */
    ChangeStream.Builder builder() {
        return ChangeStream.builder().source(endpoint(source())).target(endpoint(target()));
    }

    ServerEndpoint endpoint(Node node) {
        return new ServerEndpoint(node.host(), node.port(), topology.accounts().user(), topology.accounts().password());
    }

    @Override
    public void close() {
        topology.close();
    }
}
