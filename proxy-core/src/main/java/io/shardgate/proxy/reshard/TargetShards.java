package io.shardgate.proxy.reshard;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.shardgate.proxy.config.ShardConfig;
import io.shardgate.proxy.jobs.ReshardSpec;
import io.shardgate.proxy.topology.TopologyAdmin;
import io.shardgate.proxy.topology.TopologyDocument;

/**
 * The reshard's targets in the topology: each joins as a shard that owns no keys ({@code key_range: none}), so every
 * proxy connects to it and monitors it before the cutover gives it keys. A target already there (a resumed job) stays.
 */
final class TargetShards {
    private TargetShards() {
    }

    static void join(TopologyAdmin topology, TopologyDocument current, ReshardSpec spec, String by) {
        for (ReshardSpec.Target target : spec.targets()) {
            if (current.shard(target.name()).filter(shard -> shard.primary().toString().equals(target.primary())).isPresent()) {
                continue;
            }
            topology.commit(by, "added shard " + target.name() + " (reshard of " + spec.source() + ")", tree -> {
                for (var shard : tree.withArray("shards")) {
                    if (shard.path("name").asText().equals(target.name())) {
                        if (!shard.path("primary").asText().equals(target.primary())) {
                            throw new IllegalArgumentException("shard " + target.name() + " exists with primary "
                                    + shard.path("primary").asText() + ", not " + target.primary());
                        }
                        return; // joined meanwhile
                    }
                }
                ObjectNode shard = tree.withArray("shards").addObject();
                shard.put("name", target.name());
                shard.put("engine", target.engine());
                shard.put("primary", target.primary());
                if (!target.replicas().isEmpty()) {
                    target.replicas().forEach(shard.putArray("replicas")::add);
                }
                shard.put("key_range", ShardConfig.NO_KEYS);
            });
        }
    }
}
