package io.shardgate.proxy.jobs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * A reshard: the {@code source} shard's key range split over {@code targets}, new shards on the servers given, each
 * owning {@code key_range} once the job switches. {@code maxRowsPerSecond} caps the copy's and the diff's rows read
 * from the source per second (0: unlimited). {@link JobSpecs} checks one against the topology.
 */
public record ReshardSpec(String source, List<Target> targets, long maxRowsPerSecond) {
    /** A new shard: its name, servers, engine and the part of the source's range it will own. */
    public record Target(String name, String primary, List<String> replicas, String engine, String keyRange) {
        public Target {
            requireNonNull(name, "name is null");
            requireNonNull(primary, "primary is null");
            replicas = List.copyOf(requireNonNull(replicas, "replicas is null"));
            requireNonNull(engine, "engine is null");
            requireNonNull(keyRange, "keyRange is null");
        }
    }

    public ReshardSpec {
        requireNonNull(source, "source is null");
        targets = List.copyOf(requireNonNull(targets, "targets is null"));
        if (maxRowsPerSecond < 0) {
            throw new IllegalArgumentException("maxRowsPerSecond must be >= 0: " + maxRowsPerSecond);
        }
    }

    /** Unlimited. */
    public ReshardSpec(String source, List<Target> targets) {
        this(source, targets, 0);
    }

    /** {@code {"source": "s1", "targets": [{"name", "primary", "replicas", "engine", "key_range"}]}}, and
     * {@code "max_rows_per_second"} when it is not 0. */
    public ObjectNode toJson() {
        ObjectNode spec = JsonNodeFactory.instance.objectNode().put("source", source);
        ArrayNode array = spec.putArray("targets");
        for (Target target : targets) {
            ObjectNode node = array.addObject().put("name", target.name()).put("primary", target.primary());
            target.replicas().forEach(node.putArray("replicas")::add);
            node.put("engine", target.engine()).put("key_range", target.keyRange());
        }
        if (maxRowsPerSecond > 0) {
            spec.put("max_rows_per_second", maxRowsPerSecond);
        }
        return spec;
    }

    /** Reads a spec {@link #toJson()} wrote (a stored job's, already checked). */
    static ReshardSpec fromJson(JsonNode spec) {
        List<Target> targets = new ArrayList<>();
        for (JsonNode target : spec.path("targets")) {
            List<String> replicas = new ArrayList<>();
            target.path("replicas").forEach(replica -> replicas.add(replica.asText()));
            targets.add(new Target(target.path("name").asText(), target.path("primary").asText(), replicas,
                    target.path("engine").asText(), target.path("key_range").asText()));
        }
        return new ReshardSpec(spec.path("source").asText(), targets, spec.path("max_rows_per_second").asLong(0));
    }
}
