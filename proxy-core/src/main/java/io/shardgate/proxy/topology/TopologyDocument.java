package io.shardgate.proxy.topology;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.shardgate.proxy.config.HostPort;
import io.shardgate.proxy.config.RoutingConfig;
import io.shardgate.proxy.config.ShardConfig;
import io.shardgate.router.schema.ShardingSchema;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * A validated topology document: the shards with their backends, the sharded schemas, the routing
 * settings, each backend's administrative state, the writes a cutover holds and the history of changes. {@code tree} is its JSON
 * form, with the config file's keys ({@code shards}, {@code schemas}, {@code routing},
 * {@code backend_states}, {@code topology_history}); the other fields are what it says, parsed.
 * Made by {@code ConfigLoader#topology}, which refuses an invalid one naming the key.
 */
public record TopologyDocument(ObjectNode tree, List<ShardConfig> shards, RoutingConfig routing,
                               Optional<ShardingSchema> sharding, Map<String, BackendState> states,
                               List<TopologyChange> history, List<WriteHold> holds) {
    /** The document's keys, in the order they are written. */
    public static final List<String> KEYS = List.of("shards", "schemas", "routing", "backend_states", "write_holds",
            "topology_history");

    public TopologyDocument {
        requireNonNull(tree, "tree is null");
        shards = List.copyOf(requireNonNull(shards, "shards is null"));
        requireNonNull(routing, "routing is null");
        requireNonNull(sharding, "sharding is null");
        states = Map.copyOf(requireNonNull(states, "states is null"));
        history = List.copyOf(requireNonNull(history, "history is null"));
        holds = List.copyOf(requireNonNull(holds, "holds is null"));
    }

    /** The backend's administrative state; {@code serving} unless the document says otherwise. */
    public BackendState state(HostPort address) {
        return states.getOrDefault(address.toString(), BackendState.SERVING);
    }

    /** The shard named {@code name}, if the document has it. */
    public Optional<ShardConfig> shard(String name) {
        return shards.stream().filter(shard -> shard.name().equals(name)).findFirst();
    }

    /** The JSON text a store keeps. */
    public String json() {
        return tree.toString();
    }
}
