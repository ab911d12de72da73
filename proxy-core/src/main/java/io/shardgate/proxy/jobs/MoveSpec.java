package io.shardgate.proxy.jobs;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * A table move: {@code tables} ({@code schema.table}) from the {@code source} shard to the {@code target} shard, on
 * the {@code engine} given (the target shard's own engine when the request names none); {@code maxRowsPerSecond} caps
 * the copy's and the diff's rows read from the source per second (0: unlimited). {@link JobSpecs} checks one against
 * the topology.
 */
public record MoveSpec(List<String> tables, String source, String target, String engine, long maxRowsPerSecond) {
    public MoveSpec {
        tables = List.copyOf(requireNonNull(tables, "tables is null"));
        requireNonNull(source, "source is null");
        requireNonNull(target, "target is null");
        requireNonNull(engine, "engine is null");
        if (maxRowsPerSecond < 0) {
            throw new IllegalArgumentException("maxRowsPerSecond must be >= 0: " + maxRowsPerSecond);
        }
    }

    /** Unlimited. */
    public MoveSpec(List<String> tables, String source, String target, String engine) {
        this(tables, source, target, engine, 0);
    }

    /** {@code {"tables": ["shop.orders"], "source": "s0", "target": "s2", "engine": "rocksdb"}}, and
     * {@code "max_rows_per_second"} when it is not 0. */
    public ObjectNode toJson() {
        ObjectNode spec = JsonNodeFactory.instance.objectNode();
        tables.forEach(spec.putArray("tables")::add);
        spec.put("source", source).put("target", target).put("engine", engine);
        return maxRowsPerSecond > 0 ? spec.put("max_rows_per_second", maxRowsPerSecond) : spec;
    }

    /** Reads a spec {@link #toJson()} wrote (a stored job's, already checked). */
    static MoveSpec fromJson(JsonNode spec) {
        List<String> tables = new ArrayList<>();
        spec.path("tables").forEach(table -> tables.add(table.asText()));
        return new MoveSpec(tables, spec.path("source").asText(), spec.path("target").asText(), spec.path("engine").asText(),
                spec.path("max_rows_per_second").asLong(0));
    }
}
