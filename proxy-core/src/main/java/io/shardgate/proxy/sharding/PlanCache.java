package io.shardgate.proxy.sharding;

import io.shardgate.router.plan.Plan;
import io.shardgate.router.planner.Planner;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import static java.util.Objects.requireNonNull;

/**
 * Plans by statement text and current schema, at most {@code capacity} of them (a full cache drops an
 * arbitrary plan: a lock-free lookup matters more on this path than which plan goes). Plans do not depend on
 * parameter values, so one plan serves every execution of a prepared statement and every repeat of
 * the same text. Planning errors are not cached: they are cheap to reproduce and rare.
 */
final class PlanCache {
    /** Longer statements without a {@code ?} (multi-row INSERTs of a load, mostly) are planned each time, never kept. */
    static final int MAX_CACHED_LENGTH = 16 * 1024;

    private final Planner planner;
    private final int capacity;
    private final Map<Key, Plan> plans = new ConcurrentHashMap<>();

    private record Key(String schema, String sql) {
    }

    PlanCache(Planner planner, int capacity) {
        this.planner = requireNonNull(planner, "planner is null");
        this.capacity = capacity;
    }

    /** Every statement looks its plan up here: a lock-free read; a miss plans and, when full, drops some other plan. */
    Plan plan(String sql, String schema) {
        if (sql.length() > MAX_CACHED_LENGTH && sql.indexOf('?') < 0) {
            // A bulk load's statements are each sent once: caching them would keep megabytes of text and rows for nothing.
            // (A long statement with placeholders may be a prepared one, executed again and again: it is cached.)
            return planner.plan(sql, schema == null || schema.isEmpty() ? null : schema);
        }
        Key key = new Key(schema == null ? "" : schema, sql);
        Plan cached = plans.get(key);
        if (cached != null) {
            return cached;
        }
        Plan plan = planner.plan(sql, schema == null || schema.isEmpty() ? null : schema);
        if (plans.size() >= capacity) {
            java.util.Iterator<Key> some = plans.keySet().iterator();
            if (some.hasNext()) {
                some.next();
                some.remove();
            }
        }
        plans.put(key, plan);
        return plan;
    }
}
