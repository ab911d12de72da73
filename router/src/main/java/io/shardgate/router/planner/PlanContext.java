package io.shardgate.router.planner;

import io.shardgate.router.exec.Role;
import io.shardgate.router.schema.ShardingSchema;

/**
 * What planning one statement needs.
 *
 * @param schema   the sharding schema
 * @param resolver finds where the statement's tables live
 * @param tokens   the statement's tokens, for editing its text
 * @param role     the read/write hint from the classifier
 */
record PlanContext(ShardingSchema schema, TableResolver resolver, Tokens tokens, Role role) {

    String sql() {
        return tokens.sql();
    }

    PartitionSelection partitions() {
        return new PartitionSelection(schema);
    }
}
