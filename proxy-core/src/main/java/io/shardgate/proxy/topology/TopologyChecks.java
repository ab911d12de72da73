package io.shardgate.proxy.topology;

import io.shardgate.proxy.config.ShardConfig;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What a running proxy cannot apply from one version to the next: shards that own keys removed, shards renamed or reordered,
 * a shard added with keys, changes to a shard's engine or durability, to the sharded schemas, and to the
 * key range of a shard whose writes no cutover holds (resharding moves data first; its cutover then holds
 * the shard's writes and moves the keys). Replicas, primaries, backend states, routing settings, write
 * holds, new shards that own no keys yet ({@code key_range: none}) and the removal of shards that own none change live.
 */
public final class TopologyChecks {
    private TopologyChecks() {
    }

    /** Why {@code next} cannot follow {@code current}: empty when it can. */
    public static List<String> problems(TopologyDocument current, TopologyDocument next) {
        List<String> problems = new ArrayList<>();
        // A shard that owns no keys may go (TopologyEdits.removeShard): the others keep their order, new ones come after.
        List<String> before = current.shards().stream().filter(shard -> shard.ownsKeys() || next.shard(shard.name()).isPresent())
                .map(ShardConfig::name).toList();
        List<String> after = next.shards().stream().map(ShardConfig::name).toList();
        if (after.size() < before.size() || !after.subList(0, before.size()).equals(before)) {
            problems.add("the shards change from " + current.shards().stream().map(ShardConfig::name).toList() + " to " + after
                    + ": a running proxy does not rename or reorder shards, nor remove one that owns keys (it adds them at the end,"
                    + " and removes those that own none)");
        }
        for (ShardConfig shard : next.shards()) {
            if (current.shard(shard.name()).isEmpty() && shard.ownsKeys()) {
                problems.add("shards." + shard.name() + " is new with key_range '" + shard.keyRange() + "': a shard joins with"
                        + " key_range: none, and resharding gives it keys");
            }
        }
        for (ShardConfig shard : next.shards()) {
            Optional<ShardConfig> old = current.shard(shard.name());
            if (old.isEmpty()) {
                continue;
            }
            if (old.get().engine() != shard.engine()) {
                problems.add("shards." + shard.name() + ".engine changes: moving a shard to another engine is a migration");
            }
            if (!old.get().keyRange().equals(shard.keyRange()) && !losersHeld(current, next)) {
                problems.add("shards." + shard.name() + ".key_range changes while the writes of the shards that lose keys are"
                        + " not held: keys move in a resharding job's cutover (POST /api/v1/jobs), which holds those writes first");
            }
            if (old.get().durability() != shard.durability()) {
                problems.add("shards." + shard.name() + ".durability changes: the proxy checks durability when it starts");
            }
        }
        if (!Objects.equals(current.tree().get("schemas"), next.tree().get("schemas"))) {
            String moved = TableMoves.problem(current, next);
            if (moved != null) {
                problems.add("schemas change: " + moved);
            }
        }
        return problems;
    }

    /** Whether a cutover holds, in {@code current}, the writes of every shard that owns keys there and loses some in {@code next}. */
    private static boolean losersHeld(TopologyDocument current, TopologyDocument next) {
        for (ShardConfig shard : current.shards()) {
            Optional<ShardConfig> after = next.shard(shard.name());
            boolean loses = shard.ownsKeys() && (after.isEmpty() || !after.get().keyRange().equals(shard.keyRange()));
            if (loses && current.holds().stream().noneMatch(hold -> hold.shards().contains(shard.name()))) {
                return false;
            }
        }
        return true;
    }
}
