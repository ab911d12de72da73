package io.shardgate.proxy.sharding;

import io.shardgate.router.plan.Plan;
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

import static org.assertj.core.api.Assertions.assertThat;

class PlanCacheTest {
    private final Planner planner = new Planner(new ShardingSchema(List.of(new Shard("s0", KeyRange.parse("-80")),
            new Shard("s1", KeyRange.parse("80-"))), List.of(new SchemaRules("sbtest",
            List.of(new ShardedTable("sbtest1", "id", new HashVindex(KeyType.INTEGER))), List.of()))));

    @Test
    void aRepeatedStatementIsPlannedOnce() {
        PlanCache cache = new PlanCache(planner, 4);
        Plan first = cache.plan("SELECT c FROM sbtest1 WHERE id = ?", "sbtest");
        assertThat(cache.plan("SELECT c FROM sbtest1 WHERE id = ?", "sbtest")).isSameAs(first);
        assertThat(cache.plan("SELECT c FROM sbtest1 WHERE id = ?", "other")).isNotSameAs(first);
        assertThat(cache.size()).isEqualTo(2);
    }

    @Test
    void aFullCacheEvictsTheOldestPlanAndStaysWithinItsCapacity() {
        PlanCache cache = new PlanCache(planner, 3);
        Plan oldest = cache.plan("SELECT c FROM sbtest1 WHERE id = 0", "sbtest");
        Plan second = cache.plan("SELECT c FROM sbtest1 WHERE id = 1", "sbtest");
        for (int id = 2; id < 10_000; id++) {
            cache.plan("SELECT c FROM sbtest1 WHERE id = " + id, "sbtest");
            assertThat(cache.size()).isLessThanOrEqualTo(3);
        }
        assertThat(cache.plan("SELECT c FROM sbtest1 WHERE id = 9999", "sbtest")).isSameAs(cache.plan("SELECT c FROM sbtest1 WHERE id = 9999", "sbtest"));
        assertThat(cache.plan("SELECT c FROM sbtest1 WHERE id = 0", "sbtest")).isNotSameAs(oldest);
        assertThat(cache.plan("SELECT c FROM sbtest1 WHERE id = 1", "sbtest")).isNotSameAs(second);
    }

    @Test
    void invalidatingDropsEveryPlanSoTheNextLookupPlansAgain() {
        PlanCache cache = new PlanCache(planner, 4);
        Plan before = cache.plan("SELECT c FROM sbtest1 WHERE id = ?", "sbtest");
        cache.invalidate();
        assertThat(cache.size()).isZero();
        Plan after = cache.plan("SELECT c FROM sbtest1 WHERE id = ?", "sbtest");
        assertThat(after).isNotSameAs(before);
        assertThat(cache.plan("SELECT c FROM sbtest1 WHERE id = ?", "sbtest")).isSameAs(after);
    }

    @Test
    void aLongStatementIsPlannedButNotKept() {
        PlanCache cache = new PlanCache(planner, 8);
        StringBuilder insert = new StringBuilder("INSERT INTO sbtest1 (id, c) VALUES (1, 'x')");
        for (int id = 2; insert.length() <= PlanCache.MAX_CACHED_LENGTH; id++) {
            insert.append(", (").append(id).append(", 'x')");
        }
        Plan plan = cache.plan(insert.toString(), "sbtest");
        assertThat(plan.sql()).isEqualTo(insert.toString());
        assertThat(cache.size()).isZero();
    }

    @Test
    void aLiteralInListOverTheBoundIsPlannedButNotKept() {
        PlanCache cache = new PlanCache(planner, 8);
        StringBuilder select = new StringBuilder("SELECT c FROM sbtest1 WHERE id IN (1");
        for (int id = 2; select.length() <= PlanCache.MAX_CACHED_LENGTH; id++) {
            select.append(", ").append(id);
        }
        String sql = select.append(')').toString();
        assertThat(cache.plan(sql, "sbtest")).isNotSameAs(cache.plan(sql, "sbtest"));
        assertThat(cache.size()).isZero();
        assertThat(PlanCache.MAX_CACHED_LENGTH).as("a few hundred literals at most").isLessThanOrEqualTo(1024);
    }

    @Test
    void aShortMultiRowInsertWithItsValuesIsPlannedButNotKept() {
        PlanCache cache = new PlanCache(planner, 8);
        String insert = "INSERT INTO sbtest1 (id, c) VALUES (1, 'x'), (2, 'y')";
        Plan plan = cache.plan(insert, "sbtest");
        assertThat(plan.sql()).isEqualTo(insert);
        assertThat(cache.plan(insert, "sbtest")).isNotSameAs(plan);
        assertThat(cache.size()).isZero();
    }

    @Test
    void aOneRowInsertOrAMultiRowInsertWithPlaceholdersIsKept() {
        PlanCache cache = new PlanCache(planner, 8);
        for (String insert : List.of("INSERT INTO sbtest1 (id, c) VALUES (1, 'x')", "INSERT INTO sbtest1 (id, c) VALUES (?, ?), (?, ?)")) {
            assertThat(cache.plan(insert, "sbtest")).isSameAs(cache.plan(insert, "sbtest"));
        }
        assertThat(cache.size()).isEqualTo(2);
    }

    @Test
    void aLongStatementWithPlaceholdersMayBePreparedAndIsKept() {
        PlanCache cache = new PlanCache(planner, 8);
        StringBuilder insert = new StringBuilder("INSERT INTO sbtest1 (id, c) VALUES (?, ?)");
        while (insert.length() <= PlanCache.MAX_CACHED_LENGTH) {
            insert.append(", (?, ?)");
        }
        assertThat(cache.plan(insert.toString(), "sbtest")).isSameAs(cache.plan(insert.toString(), "sbtest"));
        assertThat(cache.size()).isEqualTo(1);
    }
}
