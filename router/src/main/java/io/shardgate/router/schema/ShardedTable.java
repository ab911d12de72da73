package io.shardgate.router.schema;

import io.shardgate.router.vindex.Vindex;

import static java.util.Objects.requireNonNull;

/** {@code orders: { shard_key: customer_id, vindex: hash }}: each row lives on the shard its key maps to. */
public record ShardedTable(String name, String shardKey, Vindex vindex) implements TableRule {
    public ShardedTable {
        requireNonNull(name, "name is null");
        requireNonNull(shardKey, "shardKey is null");
        requireNonNull(vindex, "vindex is null");
        if (shardKey.isBlank()) {
            throw new IllegalArgumentException("shard_key must name a column");
        }
    }

    /** Whether {@code column} is the shard key (column names ignore case). */
    public boolean isShardKey(String column) {
        return shardKey.equalsIgnoreCase(column);
    }
}
