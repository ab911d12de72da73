package io.shardgate.router.plan;

import io.shardgate.router.value.SqlValue;
import io.shardgate.errors.ErrorCode;
import io.shardgate.router.exec.Completion;
import io.shardgate.router.exec.ConcatStream;
import io.shardgate.router.exec.Role;
import io.shardgate.router.exec.RowStream;
import io.shardgate.router.exec.ShardStatement;
import io.shardgate.router.exec.Streams;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * Sends one SQL text to the shards its {@link ShardSelection} picks; rows come back shard after
 * shard (a {@link MergeSort} above reads them as separate sorted streams instead).
 *
 * @param variant   how the shards are picked, for EXPLAIN and for {@link RouteVariant#ALL}'s failure rule
 * @param target    what the route is for, such as {@code shop.orders}, for EXPLAIN
 * @param selection the shards
 * @param sql       the SQL every shard gets
 * @param role      where within a shard it may run
 */
public record Route(RouteVariant variant, String target, ShardSelection selection, ShardSql sql, Role role) implements PlanNode {

    public Route {
        requireNonNull(variant, "variant is null");
        requireNonNull(target, "target is null");
        requireNonNull(selection, "selection is null");
        requireNonNull(sql, "sql is null");
        requireNonNull(role, "role is null");
    }

    /** The statements of an execution with these parameters, one per shard. */
    public List<ShardStatement> statements(List<SqlValue> parameters) {
        List<SqlValue> values = sql.bind(parameters);
        return selection.shards(parameters).stream().map(shard -> new ShardStatement(shard, sql.text(), values, role)).toList();
    }

    @Override
    public List<PlanNode> inputs() {
        return List.of();
    }

    @Override
    public RowStream open(Execution execution) {
        if (variant == RouteVariant.ALL) {
            return runOnAll(execution);
        }
        List<RowStream> streams = openEach(execution);
        return streams.size() == 1 ? streams.get(0) : new ConcatStream(streams);
    }

    /** One stream per shard, in shard order; closes those already open if a shard fails to start. */
    public List<RowStream> openEach(Execution execution) {
        List<RowStream> streams = new ArrayList<>();
        try {
            for (ShardStatement statement : statements(execution.parameters())) {
                streams.add(execution.cursor().execute(statement));
            }
        }
        catch (RuntimeException e) {
            try {
                Streams.closeAll(streams);
            }
            catch (RuntimeException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
        return streams;
    }

    /**
     * Runs on every shard even when some fail, then reports which failed (a partial DDL must be
     * visible). Every shard holds the same copy (a reference table) or gets the same DDL, so the
     * result reports the first shard's affected rows, as one server would; its warning count is
     * every shard's (the shards' engines differ: MyRocks warns where InnoDB does not).
     */
    private RowStream runOnAll(Execution execution) {
        Completion completion = null;
        int warnings = 0;
        List<String> succeeded = new ArrayList<>();
        Map<String, RuntimeException> failed = new LinkedHashMap<>();
        for (ShardStatement statement : statements(execution.parameters())) {
            try (RowStream stream = execution.cursor().execute(statement)) {
                while (stream.next() != null) {
                    // A write has no rows; read to the end for its completion.
                }
                if (completion == null) {
                    completion = stream.completion();
                }
                warnings += stream.completion().warnings();
                succeeded.add(statement.shard());
            }
            catch (RuntimeException e) {
                failed.put(statement.shard(), e);
            }
        }
        if (failed.isEmpty()) {
            return Streams.completed(completion == null ? Completion.NONE
                    : new Completion(completion.affectedRows(), completion.lastInsertId(), warnings));
        }
        RuntimeException first = failed.values().iterator().next();
        if (succeeded.isEmpty()) {
            throw first;
        }
        throw ErrorCode.DDL_PARTIALLY_FAILED.exception(String.join(", ", failed.keySet()), String.join(", ", succeeded),
                first.getMessage());
    }

    @Override
    public <R> R accept(PlanVisitor<R> visitor) {
        return visitor.visit(this);
    }
}
