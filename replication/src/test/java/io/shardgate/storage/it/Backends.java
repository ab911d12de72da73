package io.shardgate.storage.it;

import io.shardgate.replication.topology.Node;
import io.shardgate.replication.topology.Topology;
import io.shardgate.storage.BackendEndpoint;
import io.shardgate.storage.Engine;

import java.util.Locale;

/** Control-plane endpoints for topology nodes. */
final class Backends {
    private Backends() {
    }

    /** The node as a backend of its own shard and engine. */
    static BackendEndpoint of(Topology topology, Node node) {
        return as(topology, node, node.engine());
    }

    /** The node as a backend configured for {@code engine}, whatever it runs. */
    static BackendEndpoint as(Topology topology, Node node, Engine engine) {
        return new BackendEndpoint(node.shard(), node.role().name().toLowerCase(Locale.ROOT), engine, node.host(),
                node.port(), topology.accounts().user(), topology.accounts().password());
    }
}
