package io.shardgate.proxy.topology;

import io.shardgate.router.schema.SchemaRules;
import io.shardgate.router.schema.ShardingSchema;
import io.shardgate.router.schema.TableRule;
import io.shardgate.router.schema.UnshardedTable;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The one change to the sharded schemas a running proxy applies: unsharded tables given another shard by a table
 * move's cutover, while a cutover holds the writes of the shard they leave. Anything else in {@code schemas} changes
 * only with a restart.
 */
final class TableMoves {
    private TableMoves() {
    }

    /** Why {@code next}'s schemas cannot follow {@code current}'s live; null when they can. */
    static String problem(TopologyDocument current, TopologyDocument next) {
        Optional<ShardingSchema> before = current.sharding();
        Optional<ShardingSchema> after = next.sharding();
        if (before.isEmpty() || after.isEmpty()) {
            return "a running proxy does not start or stop sharding";
        }
        List<String> names = before.get().schemas().stream().map(SchemaRules::name).toList();
        if (!names.equals(after.get().schemas().stream().map(SchemaRules::name).toList())) {
            return "the sharded schemas change from " + names + " to "
                    + after.get().schemas().stream().map(SchemaRules::name).toList() + "; only a table move's cutover changes them live";
        }
        List<String> problems = new ArrayList<>();
        for (SchemaRules schema : before.get().schemas()) {
            SchemaRules changed = after.get().schema(schema.name()).orElseThrow();
            if (!List.copyOf(schema.sequences()).equals(List.copyOf(changed.sequences()))
                    || !schema.tables().stream().map(TableRule::name).toList().equals(changed.tables().stream().map(TableRule::name).toList())) {
                problems.add("schemas." + schema.name() + " adds, removes or reorders tables or sequences");
                continue;
            }
            for (TableRule rule : schema.tables()) {
                TableRule moved = changed.table(rule.name()).orElseThrow();
                if (rule.equals(moved)) {
                    continue;
                }
                if (rule instanceof UnshardedTable from && moved instanceof UnshardedTable to) {
                    if (!held(current, from.shard())) {
                        problems.add("schemas." + schema.name() + ".tables." + rule.name() + " moves from " + from.shard() + " to "
                                + to.shard() + " while " + from.shard() + "'s writes are not held: tables move in a move job's cutover");
                    }
                } else {
                    problems.add("schemas." + schema.name() + ".tables." + rule.name() + " changes: only an unsharded table's shard"
                            + " changes live (a move job)");
                }
            }
        }
        return problems.isEmpty() ? null : String.join("; ", problems);
    }

    private static boolean held(TopologyDocument document, String shard) {
        return document.holds().stream().anyMatch(hold -> hold.shards().contains(shard));
    }
}
