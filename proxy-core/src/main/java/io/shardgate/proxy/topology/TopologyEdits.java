package io.shardgate.proxy.topology;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.shardgate.proxy.config.ShardConfig;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
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

    /**
     * Removes shard {@code name} and its backends' states. Refused while it owns keys, or while anything else in the
     * document names it (an unsharded table, a sequence, a range or list vindex, a cutover's write hold): each refusal
     * says what to do first. Jobs are not in the document: the caller checks them ({@link ShardUse}).
     */
    public static void removeShard(ObjectNode tree, String name) {
        ObjectNode node = shard(tree, name);
        String range = node.path("key_range").asText("");
        if (!ShardConfig.NO_KEYS.equals(range)) {
            throw new IllegalArgumentException("shard " + name + " owns keys (" + (range.isEmpty() ? "it has no key_range: it serves"
                    + " every key" : "key_range " + range) + "): move its keys first (a reshard job), then remove it");
        }
        List<String> uses = namedBy(tree, name);
        if (!uses.isEmpty()) {
            throw new IllegalArgumentException("shard " + name + " is still named by " + String.join("; ", uses));
        }
        ArrayNode shards = (ArrayNode) tree.get("shards");
        for (int i = 0; i < shards.size(); i++) {
            if (shards.get(i) == node) {
                shards.remove(i);
                break;
            }
        }
        JsonNode states = tree.path("backend_states");
        if (states.isObject()) {
            ((ObjectNode) states).remove(node.path("primary").asText());
            node.path("replicas").forEach(replica -> ((ObjectNode) states).remove(replica.asText()));
        }
    }

    /** What else in the document names shard {@code name}, each with what to do about it. */
    private static List<String> namedBy(ObjectNode tree, String name) {
        List<String> uses = new ArrayList<>();
        for (JsonNode schema : tree.path("schemas")) {
            String prefix = schema.path("name").asText() + ".";
            for (Iterator<Map.Entry<String, JsonNode>> it = schema.path("tables").fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> table = it.next();
                JsonNode rule = table.getValue();
                if (name.equals(rule.path("shard").asText(null))) {
                    uses.add("unsharded table " + prefix + table.getKey() + " (move it to another shard first: a move job)");
                }
                boolean inRanges = false;
                for (JsonNode bound : rule.path("ranges")) {
                    inRanges |= name.equals(bound.path("shard").asText(null));
                }
                if (inRanges || rule.path("lists").has(name)) {
                    uses.add("the " + (inRanges ? "range" : "list") + " vindex of table " + prefix + table.getKey()
                            + " (edit its vindex in the document's schemas first)");
                }
            }
            for (Iterator<Map.Entry<String, JsonNode>> it = schema.path("sequences").fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> sequence = it.next();
                if (name.equals(sequence.getValue().path("shard").asText(null))) {
                    uses.add("sequence " + prefix + sequence.getKey() + ", whose blocks it keeps (give the sequence another shard"
                            + " in the document's schemas first)");
                }
            }
        }
        for (JsonNode hold : tree.path("write_holds")) {
            for (JsonNode held : hold.path("shards")) {
                if (name.equals(held.asText())) {
                    uses.add("the write hold of job " + hold.path("job").asText() + " (its cutover is under way: let it end first)");
                }
            }
        }
        return uses;
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
