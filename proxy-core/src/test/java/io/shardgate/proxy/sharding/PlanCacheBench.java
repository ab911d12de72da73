package io.shardgate.proxy.sharding;

import io.shardgate.router.planner.Planner;
import io.shardgate.router.schema.SchemaRules;
import io.shardgate.router.schema.Shard;
import io.shardgate.router.schema.ShardedTable;
import io.shardgate.router.schema.ShardingSchema;
import io.shardgate.router.shard.KeyRange;
import io.shardgate.router.vindex.HashVindex;
import io.shardgate.router.vindex.KeyType;

import java.util.List;
import java.util.Locale;

/**
 * Not a test: the cost of {@link PlanCache#plan} for sysbench point selects sent as text (a new
 * statement each time: a miss that plans and, once full, evicts) and as one prepared text (a hit).
 */
public final class PlanCacheBench {
    private static volatile Object sink;

    private PlanCacheBench() {
    }

    public static void main(String[] args) {
        Planner planner = new Planner(new ShardingSchema(List.of(new Shard("s0", KeyRange.parse("-80")), new Shard("s1", KeyRange.parse("80-"))),
                List.of(new SchemaRules("sbtest", List.of(new ShardedTable("sbtest1", "id", new HashVindex(KeyType.INTEGER))), List.of()))));
        PlanCache cache = new PlanCache(planner, 4096);
        int id = 0;
        for (int round = 0; round < 8; round++) {
            long start = System.nanoTime();
            int n = 100_000;
            for (int i = 0; i < n; i++) {
                sink = cache.plan("SELECT c FROM sbtest1 WHERE id=" + (id++), "sbtest");
            }
            long text = (System.nanoTime() - start) / n;
            start = System.nanoTime();
            for (int i = 0; i < n; i++) {
                sink = cache.plan("SELECT c FROM sbtest1 WHERE id=?", "sbtest");
            }
            long prepared = (System.nanoTime() - start) / n;
            start = System.nanoTime();
            for (int i = 0; i < n; i++) {
                sink = planner.plan("SELECT c FROM sbtest1 WHERE id=" + (id++), "sbtest");
            }
            long planOnly = (System.nanoTime() - start) / n;
            System.out.printf(Locale.ROOT, "round %d: text (miss) %.2f us, prepared (hit) %.3f us, planner alone %.2f us%n", round,
                    text / 1000.0, prepared / 1000.0, planOnly / 1000.0);
        }
    }
}
