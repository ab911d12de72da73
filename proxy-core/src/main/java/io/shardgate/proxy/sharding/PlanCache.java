package io.shardgate.proxy.sharding;

import io.shardgate.router.plan.Plan;
import io.shardgate.router.planner.Planner;

import java.util.LinkedHashMap;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * Plans by statement text and current schema, least recently used evicted. Plans do not depend on
 * parameter values, so one plan serves every execution of a prepared statement and every repeat of
 * the same text. Planning errors are not cached: they are cheap to reproduce and rare.
 */
final class PlanCache {
    private final Planner planner;
    private final Map<Key, Plan> plans;

    private record Key(String schema, String sql) {
    }

    PlanCache(Planner planner, int capacity) {
        this.planner = requireNonNull(planner, "planner is null");
        this.plans = new LinkedHashMap<>(Math.min(capacity, 1024), 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Key, Plan> eldest) {
                return size() > capacity;
            }
        };
    }

    Plan plan(String sql, String schema) {
        Key key = new Key(schema == null ? "" : schema, sql);
        synchronized (plans) {
            Plan cached = plans.get(key);
            if (cached != null) {
                return cached;
            }
        }
        Plan plan = planner.plan(sql, schema == null || schema.isEmpty() ? null : schema);
        synchronized (plans) {
            plans.put(key, plan);
        }
        return plan;
    }

    int size() {
        synchronized (plans) {
            return plans.size();
        }
    }
}
