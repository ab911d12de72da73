package io.shardgate.router.planner;

import io.shardgate.router.exec.Role;
import io.shardgate.router.schema.ColumnCatalog;
import io.shardgate.router.schema.ShardingSchema;

/**
 * What planning one statement needs.
 *
 * @param schema   the sharding schema
 * @param resolver finds where the statement's tables live
 * @param tokens   the statement's tokens, for editing its text
 * @param role     the read/write hint from the classifier
 * @param columns  the tables' columns as last loaded from the shards (no I/O)
 */
record PlanContext(ShardingSchema schema, TableResolver resolver, Tokens tokens, Role role, ColumnCatalog columns) {

    String sql() {
        return tokens.sql();
    }

    PartitionSelection partitions() {
        return new PartitionSelection(schema);
    }
}
