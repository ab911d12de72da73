package io.shardgate.router.schema;

import static java.util.Objects.requireNonNull;

/** {@code countries: { type: reference }}: a full copy on every shard; writes go to all, reads to one. */
public record ReferenceTable(String name) implements TableRule {
    public ReferenceTable {
        requireNonNull(name, "name is null");
    }
}
