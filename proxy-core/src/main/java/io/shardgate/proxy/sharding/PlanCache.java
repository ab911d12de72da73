package io.shardgate.proxy.sharding;

import io.shardgate.router.plan.InsertSplit;
import io.shardgate.router.plan.Plan;
import io.shardgate.router.planner.Planner;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;

import static java.util.Objects.requireNonNull;

/**
 * Plans by statement text and current schema, at most about {@code capacity} of them. Plans do not
 * depend on parameter values, so one plan serves every execution of a prepared statement and every
 * repeat of the same text. Planning errors are not cached: they are cheap to reproduce and rare.
 *
 * <p>A lookup is a lock-free read. A miss plans, then takes the next slot of a ring of
 * {@code capacity} keys and evicts the key that was in it (first in, first out): constant time
 * however full the cache, which matters when every statement is new (point selects sent as text,
 * one id each, miss every time). Concurrent misses may both insert: the map then briefly holds a
 * few more plans than slots, never more than one per thread. A statement longer than
 * {@link #MAX_CACHED_LENGTH} chars with no {@code ?} is planned every time and not kept: such text carries
 * its values as literals (a multi-row INSERT, an {@code IN} list), is rarely repeated word for word, and
 * its plan holds every literal as objects, 15 to 25 times the text: 2,000 plans of {@code id IN (1,000
 * numbers)} (5 KB each) kept 152 MB, 600 of 1,000-row INSERTs (14 KB each) 213 MB, and 4,096 of either
 * would not fit a 512 MB heap ({@code ./shardgate bench memory}, docs/benchmarks.md). A long statement
 * with placeholders may be a prepared statement executed again and again: it is kept. Nor is the plan of
 * any INSERT of more than one row without a {@code ?} kept, however short: a bulk load's statement.
 *
 * <p>Plans depend on the tables' columns as well (an INSERT without a column list): when they change,
 * {@link #invalidate()} drops every plan. Keys carry the generation read before planning, so a plan made
 * from the old columns while they changed is never found again.
 */
final class PlanCache {
    /**
     * Longer statements without a {@code ?} (multi-row INSERTs, literal IN lists) are planned each time, never kept:
     * 4,096 plans of at most 1 KiB of literals hold at most some 100 MB.
     */
    static final int MAX_CACHED_LENGTH = 1024;

    private final Planner planner;
    private final Map<Key, Plan> plans = new ConcurrentHashMap<>();
    private final AtomicReferenceArray<Key> ring;
    private final AtomicLong inserts = new AtomicLong();
    private final AtomicLong generation = new AtomicLong();

    private record Key(long generation, String schema, String sql) {
    }

    PlanCache(Planner planner, int capacity) {
        this.planner = requireNonNull(planner, "planner is null");
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity: " + capacity + " (expected: >= 1)");
        }
        this.ring = new AtomicReferenceArray<>(capacity);
    }

    /** Every statement looks its plan up here: a lock-free read; a miss plans and evicts the oldest plan when full. */
    Plan plan(String sql, String schema) {
        if (sql.length() > MAX_CACHED_LENGTH && sql.indexOf('?') < 0) {
            // A bulk load's statements are each sent once: caching them would keep megabytes of text and rows for nothing.
            // (A long statement with placeholders may be a prepared one, executed again and again: it is cached.)
            return planner.plan(sql, schema == null || schema.isEmpty() ? null : schema);
        }
        Key key = new Key(generation.get(), schema == null ? "" : schema, sql);
        Plan cached = plans.get(key);
        if (cached != null) {
            return cached;
        }
        Plan plan = planner.plan(sql, schema == null || schema.isEmpty() ? null : schema);
        if (isLoad(plan)) {
            return plan;
        }
        if (plans.putIfAbsent(key, plan) == null) {
            Key evicted = ring.getAndSet((int) (inserts.getAndIncrement() % ring.length()), key);
            if (evicted != null && !evicted.equals(key)) {
                plans.remove(evicted);
            }
        }
        return plan;
    }

    /** A multi-row INSERT written with its values (a bulk load's statement): sent once, and its plan holds every row. */
    private static boolean isLoad(Plan plan) {
        return plan.parameterCount() == 0 && plan.root() instanceof InsertSplit split && split.rows().size() > 1;
    }

    /** The tables' columns changed: no plan made before is used again. */
    void invalidate() {
        generation.incrementAndGet();
        plans.clear();
    }

    /** How many plans are cached now. */
    int size() {
        return plans.size();
    }
}
