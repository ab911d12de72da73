package io.shardgate.proxy.sharding;

import io.shardgate.router.planner.Planner;
import io.shardgate.router.schema.SchemaRules;
import io.shardgate.router.schema.Shard;
import io.shardgate.router.schema.ShardedTable;
import io.shardgate.router.schema.ShardingSchema;
import io.shardgate.router.shard.KeyRange;
import io.shardgate.router.vindex.HashVindex;
import io.shardgate.router.vindex.KeyType;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

class PlanCacheTest {
    private final PlanCache cache = new PlanCache(new Planner(new ShardingSchema(
            List.of(new Shard("s0", KeyRange.parse("-80")), new Shard("s1", KeyRange.parse("80-"))),
            List.of(new SchemaRules("shop", List.of(new ShardedTable("t", "id", new HashVindex(KeyType.INTEGER))), List.of())))), 16);

    private static String insert(int rows, String value) {
        return "INSERT INTO t (id, v) VALUES " + IntStream.rangeClosed(1, rows).mapToObj(i -> "(" + i + ", " + value + ")")
                .collect(Collectors.joining(", "));
    }

    @Test
    void aStatementIsPlannedOnceAndItsPlanReused() {
        String sql = insert(2, "'a'");
        assertThat(cache.plan(sql, "shop")).isSameAs(cache.plan(sql, "shop"));
    }

    @Test
    void aLongStatementWithoutPlaceholdersIsPlannedEachTimeAndNotKept() {
        String sql = insert(2000, "'a'");
        assertThat(sql.length()).isGreaterThan(PlanCache.MAX_CACHED_LENGTH);
        assertThat(cache.plan(sql, "shop")).isNotSameAs(cache.plan(sql, "shop"));
        assertThat(cache.plan(sql, "shop").root()).isInstanceOfSatisfying(io.shardgate.router.plan.InsertSplit.class,
                split -> assertThat(split.rows()).hasSize(2000));
    }

    @Test
    void aLongStatementWithPlaceholdersMayBePreparedAndIsKept() {
        String sql = insert(2000, "?");
        assertThat(sql.length()).isGreaterThan(PlanCache.MAX_CACHED_LENGTH);
        assertThat(cache.plan(sql, "shop")).isSameAs(cache.plan(sql, "shop"));
    }
}
