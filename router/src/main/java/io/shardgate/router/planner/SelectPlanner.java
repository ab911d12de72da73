package io.shardgate.router.planner;

import com.alibaba.druid.sql.ast.SQLObject;
import com.alibaba.druid.sql.ast.statement.SQLSelectQuery;
import com.alibaba.druid.sql.ast.statement.SQLSelectQueryBlock;
import com.alibaba.druid.sql.ast.statement.SQLSelectStatement;
import com.alibaba.druid.sql.ast.statement.SQLUnionQuery;
import io.shardgate.errors.ErrorCode;
import io.shardgate.errors.ShardgateException;
import io.shardgate.router.plan.PlanNode;
import io.shardgate.router.plan.Route;
import io.shardgate.router.plan.RouteVariant;
import io.shardgate.router.plan.ShardSelection;
import io.shardgate.router.plan.ShardSql;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * Plans a SELECT: where its tables live decides whether it goes whole to one shard (unsharded and
 * reference tables, or a shard key equality), or runs on several with merge operators above
 * ({@link ScatterSelect}, {@link UnionScatter}).
 */
final class SelectPlanner {
    private final PlanContext context;

    SelectPlanner(PlanContext context) {
        this.context = context;
    }

    PlanNode plan(SQLSelectStatement statement) {
        SQLSelectQuery query = statement.getSelect().getQuery();
        Set<SQLObject> tops = Nodes.identitySet();
        topBlocks(query, tops);
        List<TableUse> uses = StatementTables.of(statement, tops, context.resolver(), Nodes.identitySet());
        PartitionSelection partitions = context.partitions();
        Optional<List<String>> restriction = partitions.restriction(uses, false);
        SqlRewriter rewriter = new SqlRewriter(context.tokens());
        partitions.removeShardClauses(context.tokens(), rewriter);
        List<TableUse> sharded = uses.stream().filter(u -> u.table().sharded()).toList();
        if (sharded.isEmpty()) {
            return Placement.unshardedRoute(context, uses, restriction, rewriter.build(), false);
        }
        ColumnResolver resolver = new ColumnResolver(uses);
        List<String> candidates = restriction.orElse(context.schema().shardNames());
        String target = sharded.stream().filter(TableUse::outermost).findFirst().orElse(sharded.get(0)).table().qualified();
        try {
            uses.stream().filter(u -> u.table().unsharded()).findFirst().ifPresent(u -> {
                throw ErrorCode.UNSUPPORTED.exception("a statement joining sharded table " + sharded.get(0).table().qualified()
                        + " with unsharded table " + u.table().qualified());
            });
            CoLocation.check(uses, resolver, tops);
        }
        catch (ShardgateException refused) {
            // Not co-located, but every sharded table may still be pinned to one shard: then it runs there whole.
            Optional<PlanNode> pinned = KeyPins.of(uses, resolver).oneShard(uses, List.of(), candidates, context.schema().ranges())
                    .map(key -> new Route(RouteVariant.BY_KEY, target, key, rewriter.build(), context.role()));
            // Else subqueries on other shards may run first (the Planner's SubqueryPullouts), or it stays refused.
            return pinned.orElseThrow(() -> refused);
        }
        if (candidates.isEmpty()) {
            throw ErrorCode.UNSUPPORTED.exception("PARTITION clauses naming disjoint sets of shards");
        }
        Optional<ShardSelection.Keyed> keyed = tops.size() == 1
                ? KeyConditions.of(tops.iterator().next(), resolver, candidates, context.schema().ranges())
                : Optional.empty();
        ShardSelection selection = keyed.<ShardSelection>map(k -> k).orElse(new ShardSelection.Fixed(candidates));
        RouteVariant variant = keyed.isPresent() ? RouteVariant.BY_KEY : candidates.size() == 1 ? RouteVariant.ONE : RouteVariant.SCATTER;
        boolean oneShard = candidates.size() == 1 || keyed.map(ShardSelection.Keyed::singleShard).orElse(false)
                || selection.fixed().map(s -> s.size() == 1).orElse(false);
        if (oneShard) {
            ShardSelection single = keyed.<ShardSelection>map(ShardSelection.Keyed::forOneShard).orElse(selection);
            return new Route(variant, target, single, rewriter.build(), context.role());
        }
        Function<ShardSql, Route> route = sql -> new Route(variant, target, selection, sql, context.role());
        if (query instanceof SQLUnionQuery union) {
            return new UnionScatter(context, rewriter, route).plan(union);
        }
        return new ScatterSelect(context, rewriter, resolver, route).plan((SQLSelectQueryBlock) query);
    }

    private static void topBlocks(SQLSelectQuery query, Set<SQLObject> out) {
        if (query instanceof SQLUnionQuery union) {
            union.getRelations().forEach(r -> topBlocks(r, out));
        }
        else if (query instanceof SQLSelectQueryBlock block) {
            out.add(block);
        }
        else {
            throw ErrorCode.UNSUPPORTED.exception("this form of query in a sharded schema");
        }
    }
}
