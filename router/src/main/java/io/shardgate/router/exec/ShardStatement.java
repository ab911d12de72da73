package io.shardgate.router.exec;

import io.shardgate.router.value.SqlValue;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * One statement for one shard: the SQL (with {@code ?} placeholders when the client's statement was
 * prepared) and the parameter values for them, in order.
 *
 * @param shard      the shard's name
 * @param sql        the SQL to send
 * @param parameters values for the {@code ?} in {@code sql}, in order ({@link io.shardgate.router.value.SqlValue#NULL} for SQL NULL)
 * @param role       where within the shard it may run
 */
public record ShardStatement(String shard, String sql, List<SqlValue> parameters, Role role) {

    public ShardStatement {
        requireNonNull(shard, "shard is null");
        requireNonNull(sql, "sql is null");
        requireNonNull(role, "role is null");
        parameters = List.copyOf(requireNonNull(parameters, "parameters is null"));
    }
}
