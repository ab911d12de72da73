package io.shardgate.router.vindex;

import io.shardgate.router.shard.ShardRanges;

import java.util.Optional;

/**
 * Maps a shard key value to the shard that owns it. Two tables whose vindexes are equal place equal
 * key values on the same shard, which is what lets a join on their shard keys run on each shard.
 */
public sealed interface Vindex permits HashVindex, RangeVindex, ListVindex {

    /** The type of the shard key column. */
    KeyType keyType();

    /** The shard owning {@code key}, or empty when no shard does (a range or list vindex without it). */
    Optional<String> shardOf(ShardKey key, ShardRanges ranges);

    /** A short description for EXPLAIN, such as {@code hash(integer)}. */
    String describe();
}
