package io.shardgate.router.schema;

import static java.util.Objects.requireNonNull;

/** {@code settings: { type: unsharded, shard: s0 }}: the table lives on one shard only. */
public record UnshardedTable(String name, String shard) implements TableRule {
    public UnshardedTable {
        requireNonNull(name, "name is null");
        requireNonNull(shard, "shard is null");
    }
}
