package io.shardgate.router.schema;

import static java.util.Objects.requireNonNull;

/**
 * {@code sequences: { orders.id: { shard: s0 } }}: ids for {@code table.column} come from a global
 * sequence kept on {@code shard}, so an INSERT that leaves the column out (or gives NULL or 0)
 * gets an id unique across shards.
 */
public record Sequence(String table, String column, String shard) {
    public Sequence {
        requireNonNull(table, "table is null");
        requireNonNull(column, "column is null");
        requireNonNull(shard, "shard is null");
    }

    /** The sequence's name, {@code table.column}. */
    public String name() {
        return table + "." + column;
    }
}
