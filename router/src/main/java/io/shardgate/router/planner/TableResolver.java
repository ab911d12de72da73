package io.shardgate.router.planner;

import io.shardgate.errors.ErrorCode;
import io.shardgate.router.schema.SchemaRules;
import io.shardgate.router.schema.ShardingSchema;
import io.shardgate.router.schema.TableRule;
import io.shardgate.router.schema.UnshardedTable;

import java.util.Optional;

/**
 * Finds where a table named in a statement lives: as the rules of its sharded schema say, and a
 * table they do not list, like every table of any other schema (the system schemas included), is
 * unsharded on the first shard, where its DDL goes too.
 */
final class TableResolver {
    private final ShardingSchema schema;
    private final String currentSchema;

    TableResolver(ShardingSchema schema, String currentSchema) {
        this.schema = schema;
        this.currentSchema = currentSchema;
    }

    /** The table {@code name} of {@code schemaName}, or of the current schema when that is null. */
    PlacedTable resolve(String schemaName, String name) {
        String effective = schemaName != null ? schemaName : currentSchema;
        if (effective == null) {
            throw ErrorCode.NO_DATABASE_SELECTED.exception();
        }
        Optional<SchemaRules> rules = schema.schema(effective);
        if (rules.isEmpty()) {
            return new PlacedTable(effective, name, new UnshardedTable(name, schema.defaultShard()), false);
        }
        // A table the rules do not list (an application's own, created through the proxy) lives whole on the default shard.
        TableRule rule = rules.get().table(name).orElseGet(() -> new UnshardedTable(name, schema.defaultShard()));
        return new PlacedTable(rules.get().name(), name, rule, true);
    }

    /** Whether {@code name} (or the current schema, when null) is a sharded schema. */
    boolean isSharded(String name) {
        String effective = name != null ? name : currentSchema;
        return effective != null && schema.schema(effective).isPresent();
    }

    String currentSchema() {
        return currentSchema;
    }
}
