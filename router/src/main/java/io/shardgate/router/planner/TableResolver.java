package io.shardgate.router.planner;

import io.shardgate.errors.ErrorCode;
import io.shardgate.router.schema.SchemaRules;
import io.shardgate.router.schema.ShardingSchema;
import io.shardgate.router.schema.UnshardedTable;

import java.util.Optional;

/**
 * Finds where a table named in a statement lives. A table of a sharded schema must be in its
 * rules (ERR 1146 otherwise); any other schema, the system schemas included, is unsharded on the
 * first shard.
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
        return rules.get().table(name)
                .map(rule -> new PlacedTable(rules.get().name(), name, rule, true))
                .orElseThrow(() -> ErrorCode.UNKNOWN_TABLE.exception(rules.get().name(), name));
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
