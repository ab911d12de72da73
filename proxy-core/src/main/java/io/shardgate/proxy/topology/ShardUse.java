package io.shardgate.proxy.topology;

import java.util.Optional;

/**
 * What outside the topology document still uses a shard, so it cannot be removed: a job that has not ended (its source
 * or a target), the XA decision log. The admin API asks before it removes a shard.
 */
@FunctionalInterface
public interface ShardUse {
    /** Nothing uses any shard. */
    ShardUse NONE = shard -> Optional.empty();

    /** What uses {@code shard}, and what to do about it (a sentence); empty when nothing does. */
    Optional<String> usedBy(String shard);

    /** This use, else {@code other}'s. */
    default ShardUse or(ShardUse other) {
        return shard -> {
            Optional<String> use = usedBy(shard);
            return use.isPresent() ? use : other.usedBy(shard);
        };
    }
}
