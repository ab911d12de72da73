package io.shardgate.router.schema;

import io.shardgate.router.shard.KeyRange;

import static java.util.Objects.requireNonNull;

/** A shard: config {@code shards[].name} and {@code shards[].key_range}. */
public record Shard(String name, KeyRange keyRange) {
    public Shard {
        requireNonNull(name, "name is null");
        requireNonNull(keyRange, "keyRange is null");
        if (name.isBlank()) {
            throw new IllegalArgumentException("a shard name must not be blank");
        }
    }
}
