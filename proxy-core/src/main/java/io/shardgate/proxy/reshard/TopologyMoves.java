package io.shardgate.proxy.reshard;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.shardgate.proxy.config.ShardConfig;
import io.shardgate.proxy.jobs.ReshardSpec;
import io.shardgate.router.shard.KeyRange;

import java.util.List;

/** The edits a job's cutover makes to the topology document, in the same version that lifts its write hold. */
final class TopologyMoves {
    private TopologyMoves() {
    }

    /** A reshard: the source owns no keys any more, each target its range. */
    static void giveKeys(ObjectNode tree, ReshardSpec spec) {
        for (JsonNode shard : tree.withArray("shards")) {
            String name = shard.path("name").asText();
            if (name.equals(spec.source())) {
                ((ObjectNode) shard).put("key_range", ShardConfig.NO_KEYS);
            }
            for (ReshardSpec.Target target : spec.targets()) {
                if (name.equals(target.name())) {
                    ((ObjectNode) shard).put("key_range", target.keyRange());
                }
            }
        }
    }

    /**
     * A reshard reversed: the targets own no keys any more, the source its range again: the targets' ranges joined
     * (they cover it exactly, see {@link io.shardgate.proxy.jobs.JobSpecs}).
     */
    static void takeKeysBack(ObjectNode tree, ReshardSpec spec) {
        KeyRange first = null;
        KeyRange last = null;
        for (ReshardSpec.Target target : spec.targets()) {
            KeyRange range = KeyRange.parse(target.keyRange());
            if (first == null || range.unboundedStart() || (!first.unboundedStart() && Long.compareUnsigned(range.start(), first.start()) < 0)) {
                first = range;
            }
            if (last == null || range.unboundedEnd() || (!last.unboundedEnd() && Long.compareUnsigned(range.end(), last.end()) > 0)) {
                last = range;
            }
        }
        String joined = new KeyRange(first.start(), first.unboundedStart(), last.end(), last.unboundedEnd()).toString();
        for (JsonNode shard : tree.withArray("shards")) {
            String name = shard.path("name").asText();
            if (name.equals(spec.source())) {
                ((ObjectNode) shard).put("key_range", joined);
            }
            for (ReshardSpec.Target target : spec.targets()) {
                if (name.equals(target.name())) {
                    ((ObjectNode) shard).put("key_range", ShardConfig.NO_KEYS);
                }
            }
        }
    }

    /** A table move: each of {@code tables} ({@code schema.table}, unsharded) lives on {@code target} from now on. */
    static void moveTables(ObjectNode tree, List<String> tables, String target) {
        for (String qualified : tables) {
            int dot = qualified.indexOf('.');
            String schemaName = qualified.substring(0, dot);
            String table = qualified.substring(dot + 1);
            boolean found = false;
            for (JsonNode schema : tree.withArray("schemas")) {
                if (schema.path("name").asText().equalsIgnoreCase(schemaName) && schema.path("tables").get(table) instanceof ObjectNode rule) {
                    rule.put("shard", target);
                    found = true;
                }
            }
            if (!found) {
                throw new IllegalArgumentException("schemas." + schemaName + ".tables." + table + " is not in the topology any more");
            }
        }
    }
}
