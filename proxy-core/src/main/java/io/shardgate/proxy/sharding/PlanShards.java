package io.shardgate.proxy.sharding;

import io.shardgate.router.plan.InsertFromSelect;
import io.shardgate.router.plan.InsertSplit;
import io.shardgate.router.plan.PlanNode;
import io.shardgate.router.plan.Route;
import io.shardgate.router.plan.RouteVariant;
import io.shardgate.router.schema.ShardingSchema;
import io.shardgate.router.value.SqlValue;

import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** The shards a plan may reach with its parameters, read from the plan alone (no sequence value drawn, nothing run). */
final class PlanShards {
    private PlanShards() {
    }

    /** Whether a write plan may reach more than one shard with these parameters. */
    static boolean touchesSeveral(PlanNode node, List<SqlValue> parameters) {
        Set<String> shards = new HashSet<>();
        return collect(node, parameters, shards, false) || shards.size() > 1;
    }

    /**
     * Every shard the plan may reach: the routes' shards; all of {@code schema}'s for a route to all shards, a
     * multi-row INSERT and INSERT … SELECT (which spread their rows as they go).
     */
    static Set<String> of(PlanNode node, List<SqlValue> parameters, ShardingSchema schema) {
        Set<String> shards = new LinkedHashSet<>();
        return collect(node, parameters, shards, true) ? new LinkedHashSet<>(schema.shardNames()) : shards;
    }

    /**
     * Adds the shards {@code node} reaches; true when it may reach several shards it cannot name. {@code exact}: a
     * one-row INSERT whose shard key is not a literal may reach any shard (else: it reaches one).
     */
    private static boolean collect(PlanNode node, List<SqlValue> parameters, Set<String> shards, boolean exact) {
        if (node instanceof Route route) {
            if (route.variant() == RouteVariant.ALL) {
                return true;
            }
            shards.addAll(route.selection().shards(parameters));
            return false;
        }
        if (node instanceof InsertSplit split) {
            if (split.rows().size() > 1) {
                return true;
            }
            if (!exact) {
                return false;
            }
            try {
                var key = InsertSplit.literalKey(split.rows().get(0));
                if (key.isEmpty()) {
                    return true;
                }
                shards.add(split.shardOf(split.rows().get(0), key.get()));
                return false;
            } catch (RuntimeException e) {
                return true; // the statement fails with the key's error when it runs
            }
        }
        if (node instanceof InsertFromSelect) {
            return true; // reads, then inserts any number of rows in batches
        }
        for (PlanNode input : node.inputs()) {
            if (collect(input, parameters, shards, exact)) {
                return true;
            }
        }
        return false;
    }
}
