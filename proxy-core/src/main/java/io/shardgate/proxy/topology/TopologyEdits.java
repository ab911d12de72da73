package io.shardgate.proxy.topology;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.time.Instant;
import java.util.Iterator;
import java.util.Map;

/**
 * The admin API's changes, as edits of a document's JSON tree (the caller validates the result as a
 * whole document). An edit that names something the document lacks throws
 * {@link IllegalArgumentException} saying what.
 */
public final class TopologyEdits {
    /** How many changes the document's history keeps. */
    public static final int HISTORY = 200;

    private TopologyEdits() {
    }

    public static void addReplica(ObjectNode tree, String shard, String address) {
        ObjectNode node = shard(tree, shard);
        if (address.equals(node.path("primary").asText())) {
            throw new IllegalArgumentException(address + " is the primary of shard " + shard);
        }
        ArrayNode replicas = node.has("replicas") && node.get("replicas").isArray() ? (ArrayNode) node.get("replicas")
                : node.putArray("replicas");
        for (JsonNode replica : replicas) {
            if (replica.asText().equals(address)) {
                throw new IllegalArgumentException("shard " + shard + " already has replica " + address);
            }
        }
        replicas.add(address);
    }

    public static void removeReplica(ObjectNode tree, String shard, String address) {
        ObjectNode node = shard(tree, shard);
        JsonNode replicas = node.path("replicas");
        for (Iterator<JsonNode> it = replicas.elements(); it.hasNext(); ) {
            if (it.next().asText().equals(address)) {
                it.remove();
                JsonNode states = tree.path("backend_states");
                if (states.isObject()) {
                    ((ObjectNode) states).remove(address);
                }
                return;
            }
        }
        throw new IllegalArgumentException("shard " + shard + " has no replica " + address);
    }

    /** Sets a backend's state; {@code serving}, the default, is written by leaving the backend out. */
    public static void setState(ObjectNode tree, String address, BackendState state) {
        boolean known = false;
        for (JsonNode shard : tree.path("shards")) {
            known |= address.equals(shard.path("primary").asText());
            for (JsonNode replica : shard.path("replicas")) {
                known |= address.equals(replica.asText());
            }
        }
        if (!known) {
            throw new IllegalArgumentException("no shard has a backend at " + address);
        }
        ObjectNode states = tree.has("backend_states") && tree.get("backend_states").isObject()
                ? (ObjectNode) tree.get("backend_states") : tree.putObject("backend_states");
        if (state == BackendState.SERVING) {
            states.remove(address);
        } else {
            states.put(address, state.configName());
        }
    }

    /** Sets the routing keys {@code patch} names, keeping the others. */
    public static void patchRouting(ObjectNode tree, ObjectNode patch) {
        ObjectNode routing = tree.has("routing") && tree.get("routing").isObject() ? (ObjectNode) tree.get("routing")
                : tree.putObject("routing");
        for (Iterator<Map.Entry<String, JsonNode>> it = patch.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> field = it.next();
            routing.set(field.getKey(), field.getValue());
        }
    }

    /** Records who changed which version, when, and how; the oldest entries go past {@link #HISTORY}. */
    public static void record(ObjectNode tree, TopologyChange change) {
        ArrayNode history = tree.has("topology_history") && tree.get("topology_history").isArray()
                ? (ArrayNode) tree.get("topology_history") : tree.putArray("topology_history");
        ObjectNode entry = history.addObject();
        entry.put("from_version", change.fromVersion());
        entry.put("at", change.at().toString());
        entry.put("by", change.by());
        entry.put("what", change.what());
        while (history.size() > HISTORY) {
            history.remove(0);
        }
    }

    /** A change made now. */
    public static TopologyChange change(long fromVersion, String by, String what) {
        return new TopologyChange(fromVersion, Instant.now(), by, what);
    }

    private static ObjectNode shard(ObjectNode tree, String name) {
        for (JsonNode shard : tree.path("shards")) {
            if (name.equals(shard.path("name").asText()) && shard.isObject()) {
                return (ObjectNode) shard;
            }
        }
        throw new IllegalArgumentException("no shard named " + name);
    }
}
