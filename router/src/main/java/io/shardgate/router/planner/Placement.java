package io.shardgate.router.planner;

import io.shardgate.errors.ErrorCode;
import io.shardgate.router.exec.Role;
import io.shardgate.router.plan.Route;
import io.shardgate.router.plan.RouteVariant;
import io.shardgate.router.plan.ShardSelection;
import io.shardgate.router.plan.ShardSql;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Where a statement without sharded tables goes: the one shard of its unsharded tables (all must
 * share it); for reference tables only, any one shard for a read and every shard for a write.
 */
final class Placement {
    private Placement() {
    }

    /** The route of a statement over {@code uses}, none of which is sharded. */
    static Route unshardedRoute(PlanContext context, List<TableUse> uses, Optional<List<String>> restriction, ShardSql sql,
                                boolean write) {
        Set<String> homes = new LinkedHashSet<>();
        uses.stream().filter(u -> u.table().unsharded()).forEach(u -> homes.add(u.table().home()));
        if (homes.size() > 1) {
            List<String> tables = uses.stream().filter(u -> u.table().unsharded())
                    .map(u -> u.table().qualified() + " (" + u.table().home() + ")").distinct().toList();
            throw ErrorCode.UNSUPPORTED.exception("a statement over unsharded tables on different shards: " + String.join(", ", tables));
        }
        String target = uses.isEmpty() ? "no table" : uses.get(0).table().qualified();
        if (!homes.isEmpty()) {
            return new Route(RouteVariant.ONE, target, new ShardSelection.Fixed(List.of(homes.iterator().next())), sql, context.role());
        }
        if (write && !uses.isEmpty()) {
            return new Route(RouteVariant.ALL, target, new ShardSelection.Fixed(context.schema().shardNames()), sql, Role.PRIMARY);
        }
        String shard = restriction.filter(r -> !r.isEmpty()).map(r -> r.get(0)).orElse(context.schema().defaultShard());
        return new Route(RouteVariant.ONE, target, new ShardSelection.Fixed(List.of(shard)), sql, context.role());
    }
}
