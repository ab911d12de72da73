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
    /** Tables ({@code schema.table}, lower case) a {@link io.shardgate.router.plan.CopyJoin} copies to every shard. */
    private final java.util.Set<String> copied;

    TableResolver(ShardingSchema schema, String currentSchema) {
        this(schema, currentSchema, java.util.Set.of());
    }

    /** A resolver that places the {@code copied} tables ({@code schema.table}, lower case) on every shard, as a copy there. */
    TableResolver(ShardingSchema schema, String currentSchema, java.util.Set<String> copied) {
        this.schema = schema;
        this.currentSchema = currentSchema;
        this.copied = java.util.Set.copyOf(copied);
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
        if (!copied.isEmpty() && copied.contains(key(rules.get().name(), name))) {
            // A copy on every shard reads like a reference table's copy.
            rule = new io.shardgate.router.schema.ReferenceTable(name);
        }
        return new PlacedTable(rules.get().name(), name, rule, true);
    }

    /** Whether {@code name} (or the current schema, when null) is a sharded schema. */
    boolean isSharded(String name) {
        String effective = name != null ? name : currentSchema;
        return effective != null && schema.schema(effective).isPresent();
    }

    /** How {@code copied} names a table. */
    static String key(String schemaName, String table) {
        return (schemaName + "." + table).toLowerCase(java.util.Locale.ROOT);
    }

    /** Whether this resolver places copies: the statement is planned for a {@link io.shardgate.router.plan.CopyJoin}. */
    boolean placesCopies() {
        return !copied.isEmpty();
    }

    String currentSchema() {
        return currentSchema;
    }
}
