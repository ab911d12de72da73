package io.shardgate.router.vindex;

import io.shardgate.router.shard.ShardRanges;

import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * {@code vindex: hash}: the keyspace id of a key is the XXH64 (seed 0) of its canonical bytes,
 * read as an unsigned 64-bit number; the shard whose key range holds it owns the key.
 */
public record HashVindex(KeyType keyType) implements Vindex {

    public HashVindex {
        requireNonNull(keyType, "keyType is null");
    }

    /** The keyspace id of {@code key}. */
    public long keyspaceId(ShardKey key) {
        requireNonNull(key, "key is null");
        return XxHash64.hash(key.canonicalBytes());
    }

    @Override
    public Optional<String> shardOf(ShardKey key, ShardRanges ranges) {
        requireNonNull(ranges, "ranges is null");
        return Optional.of(ranges.shardFor(keyspaceId(key)));
    }

    @Override
    public String describe() {
        return "hash(" + keyType + ")";
    }
}
