package io.shardgate.router.exec;

import io.shardgate.router.value.SqlValue;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * One statement for one shard: the SQL (with {@code ?} placeholders when the client's statement was
 * prepared) and the parameter values for them, in order; and the statements that must run on the same
 * connection just before it and after its result ended (the copies of other shards' tables a
 * {@link io.shardgate.router.plan.CopyJoin} reads, and their removal).
 *
 * @param shard      the shard's name
 * @param sql        the SQL to send
 * @param parameters values for the {@code ?} in {@code sql}, in order ({@link io.shardgate.router.value.SqlValue#NULL} for SQL NULL)
 * @param role       where within the shard it may run
 * @param before     run first, in order, on the connection that then runs {@code sql}; the first failure is the statement's
 * @param after      run on that connection once the result has ended (failed or not), before anything else uses it; if
 *                   one fails, the connection is closed rather than used again
 */
public record ShardStatement(String shard, String sql, List<SqlValue> parameters, Role role, List<Step> before, List<Step> after) {

    /** One statement of {@link #before} or {@link #after}: its SQL and the values of its {@code ?}. */
    public record Step(String sql, List<SqlValue> parameters) {
        public Step {
            requireNonNull(sql, "sql is null");
            parameters = List.copyOf(requireNonNull(parameters, "parameters is null"));
        }
    }

    public ShardStatement {
        requireNonNull(shard, "shard is null");
        requireNonNull(sql, "sql is null");
        requireNonNull(role, "role is null");
        parameters = List.copyOf(requireNonNull(parameters, "parameters is null"));
        before = List.copyOf(requireNonNull(before, "before is null"));
        after = List.copyOf(requireNonNull(after, "after is null"));
    }

    /** A statement with nothing to run around it. */
    public ShardStatement(String shard, String sql, List<SqlValue> parameters, Role role) {
        this(shard, sql, parameters, role, List.of(), List.of());
    }

    /** This statement with {@code first} run before what already runs before it, and {@code then} after what runs after it. */
    public ShardStatement around(List<Step> first, List<Step> then) {
        List<Step> allBefore = new java.util.ArrayList<>(first);
        allBefore.addAll(before);
        List<Step> allAfter = new java.util.ArrayList<>(after);
        allAfter.addAll(then);
        return new ShardStatement(shard, sql, parameters, role, allBefore, allAfter);
    }
}
