package io.shardgate.router.planner;

import io.shardgate.router.schema.ReferenceTable;
import io.shardgate.router.schema.ShardedTable;
import io.shardgate.router.schema.TableRule;
import io.shardgate.router.schema.UnshardedTable;

/**
 * A table of a statement with its placement.
 *
 * @param schema     the schema it is in
 * @param name       its name as the statement writes it
 * @param rule       its rule; for a schema the sharding schema does not list, an unsharded table on the first shard
 * @param configured whether the schema is a sharded schema of the config
 */
record PlacedTable(String schema, String name, TableRule rule, boolean configured) {

    boolean sharded() {
        return rule instanceof ShardedTable;
    }

    boolean reference() {
        return rule instanceof ReferenceTable;
    }

    boolean unsharded() {
        return rule instanceof UnshardedTable;
    }

    ShardedTable shardedRule() {
        return (ShardedTable) rule;
    }

    /** The one shard an unsharded table lives on. */
    String home() {
        return ((UnshardedTable) rule).shard();
    }

    String qualified() {
        return schema + "." + name;
    }
}
