package io.shardgate.proxy.topology;

import io.shardgate.proxy.config.ShardConfig;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What a running proxy cannot apply from one version to the next: changes to the set of shards, to a
 * shard's engine, key range or durability, and to the sharded schemas (resharding moves data; it has
 * its own path). Replicas, primaries, backend states and routing settings change live.
 */
public final class TopologyChecks {
    private TopologyChecks() {
    }

    /** Why {@code next} cannot follow {@code current}: empty when it can. */
    public static List<String> problems(TopologyDocument current, TopologyDocument next) {
        List<String> problems = new ArrayList<>();
        List<String> before = current.shards().stream().map(ShardConfig::name).toList();
        List<String> after = next.shards().stream().map(ShardConfig::name).toList();
        if (!before.equals(after)) {
            problems.add("the shards change from " + before + " to " + after
                    + ": a running proxy does not add, remove, rename or reorder shards");
        }
        for (ShardConfig shard : next.shards()) {
            Optional<ShardConfig> old = current.shard(shard.name());
            if (old.isEmpty()) {
                continue;
            }
            if (old.get().engine() != shard.engine()) {
                problems.add("shards." + shard.name() + ".engine changes: moving a shard to another engine is a migration");
            }
            if (!old.get().keyRange().equals(shard.keyRange())) {
                problems.add("shards." + shard.name() + ".key_range changes: moving key ranges is resharding");
            }
            if (old.get().durability() != shard.durability()) {
                problems.add("shards." + shard.name() + ".durability changes: the proxy checks durability when it starts");
            }
        }
        if (!Objects.equals(current.tree().get("schemas"), next.tree().get("schemas"))) {
            problems.add("schemas change: changing the sharded schemas of a running deployment is resharding");
        }
        return problems;
    }
}
