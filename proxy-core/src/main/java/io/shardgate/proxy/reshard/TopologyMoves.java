package io.shardgate.proxy.reshard;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.shardgate.proxy.config.ShardConfig;
import io.shardgate.proxy.jobs.ReshardSpec;

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
