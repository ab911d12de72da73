package io.shardgate.router.planner;

import com.alibaba.druid.sql.ast.SQLObject;
import com.alibaba.druid.sql.ast.SQLStatement;
import com.alibaba.druid.sql.ast.statement.SQLDeleteStatement;
import com.alibaba.druid.sql.ast.statement.SQLUpdateSetItem;
import com.alibaba.druid.sql.ast.statement.SQLUpdateStatement;
import com.alibaba.druid.sql.dialect.mysql.ast.statement.MySqlDeleteStatement;
import com.alibaba.druid.sql.dialect.mysql.ast.statement.MySqlUpdateStatement;
import io.shardgate.errors.ErrorCode;
import io.shardgate.errors.ShardgateException;
import io.shardgate.router.exec.Role;
import io.shardgate.router.plan.PlanNode;
import io.shardgate.router.plan.Route;
import io.shardgate.router.plan.RouteVariant;
import io.shardgate.router.plan.ShardSelection;

import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Plans UPDATE and DELETE (single- and multi-table). On sharded tables they go to the shards a shard
 * key equality or IN picks, else to every shard, and the affected rows add up. The tables must be
 * co-located as for a SELECT; an UPDATE may not assign a shard key; ORDER BY or LIMIT would apply per
 * shard, so they need a single shard. Unsharded tables go to their shard, reference tables to all.
 */
final class WritePlanner {
    private final PlanContext context;

    WritePlanner(PlanContext context) {
        this.context = context;
    }

    PlanNode plan(SQLStatement statement) {
        Set<SQLObject> top = Nodes.identitySet((SQLObject) statement);
        List<TableUse> uses = StatementTables.of(statement, top, context.resolver(), StatementTables.deleteTargets(statement));
        PartitionSelection partitions = context.partitions();
        Optional<List<String>> restriction = partitions.restriction(uses, true);
        SqlRewriter rewriter = new SqlRewriter(context.tokens());
        partitions.removeShardClauses(context.tokens(), rewriter);
        ColumnResolver resolver = new ColumnResolver(uses);
        List<TableUse> sharded = uses.stream().filter(u -> u.table().sharded()).toList();
        String verb = statement instanceof SQLUpdateStatement ? "UPDATE" : "DELETE";
        boolean writesReference = uses.stream().anyMatch(u -> u.table().reference() && u.outermost() && written(u, statement, resolver));
        if (sharded.isEmpty()) {
            if (writesReference && uses.stream().anyMatch(u -> u.table().unsharded())) {
                throw ErrorCode.UNSUPPORTED.exception("writing a reference table from unsharded tables");
            }
            return Placement.unshardedRoute(context, uses, restriction, rewriter.build(), writesReference);
        }
        if (writesReference) {
            throw ErrorCode.UNSUPPORTED.exception(verb + " of a reference table joined with sharded table "
                    + sharded.get(0).table().qualified() + ": its copies would differ");
        }
        Optional<ShardSelection.Keyed> pinned = Optional.empty();
        try {
            uses.stream().filter(u -> u.table().unsharded()).findFirst().ifPresent(u -> {
                throw ErrorCode.UNSUPPORTED.exception("a statement joining sharded table " + sharded.get(0).table().qualified()
                        + " with unsharded table " + u.table().qualified());
            });
            CoLocation.check(uses, resolver, top);
        }
        catch (ShardgateException refused) {
            // Not co-located, but every sharded table may still be pinned to one shard: then it runs there whole.
            pinned = Optional.of(KeyPins.of(uses, resolver).oneShard(uses, List.of(), restriction.orElse(context.schema().shardNames()),
                    context.schema().ranges()).orElseThrow(() -> refused));
        }
        if (statement instanceof SQLUpdateStatement update) {
            for (SQLUpdateSetItem item : update.getItems()) {
                resolver.resolve(item.getColumn()).filter(ColumnResolver.Column::isShardKey).ifPresent(c -> {
                    throw ErrorCode.SHARD_KEY_CHANGE.exception(c.use().table().qualified() + "." + c.use().table().shardedRule().shardKey());
                });
            }
        }
        if (pinned.isPresent()) {
            return new Route(RouteVariant.BY_KEY, sharded.get(0).table().qualified(), pinned.get(), rewriter.build(), Role.PRIMARY);
        }
        List<String> candidates = restriction.orElse(context.schema().shardNames());
        if (candidates.isEmpty()) {
            throw ErrorCode.UNSUPPORTED.exception("PARTITION clauses naming disjoint sets of shards");
        }
        Optional<ShardSelection.Keyed> keyed = KeyConditions.of(statement, resolver, candidates, context.schema().ranges());
        ShardSelection selection = keyed.<ShardSelection>map(k -> k).orElse(new ShardSelection.Fixed(candidates));
        boolean oneShard = candidates.size() == 1 || keyed.map(ShardSelection.Keyed::singleShard).orElse(false)
                || selection.fixed().map(s -> s.size() == 1).orElse(false);
        if (hasOrderOrLimit(statement)) {
            if (!oneShard) {
                throw ErrorCode.UNSUPPORTED.exception(verb + " with ORDER BY or LIMIT on more than one shard");
            }
            selection = keyed.<ShardSelection>map(ShardSelection.Keyed::forOneShard).orElse(selection);
        }
        RouteVariant variant = keyed.isPresent() ? RouteVariant.BY_KEY : candidates.size() == 1 ? RouteVariant.ONE : RouteVariant.SCATTER;
        return new Route(variant, sharded.get(0).table().qualified(), selection, rewriter.build(), Role.PRIMARY);
    }

    /** Whether the statement changes rows of {@code use}: a column of it is SET, or it is a DELETE target. */
    private static boolean written(TableUse use, SQLStatement statement, ColumnResolver resolver) {
        if (statement instanceof SQLUpdateStatement update) {
            for (SQLUpdateSetItem item : update.getItems()) {
                Optional<ColumnResolver.Column> column = resolver.resolve(item.getColumn());
                if (column.isEmpty() || column.get().use() == use) {
                    return true;
                }
            }
            return false;
        }
        if (statement instanceof MySqlDeleteStatement delete && (delete.getFrom() != null || delete.getUsing() != null)) {
            return StatementTables.deleteTargets(statement).stream()
                    .anyMatch(t -> Names.same(Aggregates.text(((com.alibaba.druid.sql.ast.statement.SQLExprTableSource) t).getExpr()), use.reference()));
        }
        return true;
    }

    private static boolean hasOrderOrLimit(SQLStatement statement) {
        if (statement instanceof MySqlUpdateStatement update) {
            return update.getOrderBy() != null || update.getLimit() != null;
        }
        if (statement instanceof MySqlDeleteStatement delete) {
            return delete.getOrderBy() != null || delete.getLimit() != null;
        }
        return false;
    }

    static boolean isWrite(SQLStatement statement) {
        return statement instanceof SQLUpdateStatement || statement instanceof SQLDeleteStatement;
    }

}
