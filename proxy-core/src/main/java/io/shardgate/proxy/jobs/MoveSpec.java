package io.shardgate.proxy.jobs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * A table move: {@code tables} ({@code schema.table}) from the {@code source} shard to the {@code target} shard, on
 * the {@code engine} given (the target shard's own engine when the request names none). {@link JobSpecs} checks one
 * against the topology.
 */
public record MoveSpec(List<String> tables, String source, String target, String engine) {
    public MoveSpec {
        tables = List.copyOf(requireNonNull(tables, "tables is null"));
        requireNonNull(source, "source is null");
        requireNonNull(target, "target is null");
        requireNonNull(engine, "engine is null");
    }

    /** {@code {"tables": ["shop.orders"], "source": "s0", "target": "s2", "engine": "rocksdb"}}. */
    public ObjectNode toJson() {
        ObjectNode spec = JsonNodeFactory.instance.objectNode();
        tables.forEach(spec.putArray("tables")::add);
        return spec.put("source", source).put("target", target).put("engine", engine);
    }

    /** Reads a spec {@link #toJson()} wrote (a stored job's, already checked). */
    static MoveSpec fromJson(JsonNode spec) {
        List<String> tables = new ArrayList<>();
        spec.path("tables").forEach(table -> tables.add(table.asText()));
        return new MoveSpec(tables, spec.path("source").asText(), spec.path("target").asText(), spec.path("engine").asText());
    }
}
