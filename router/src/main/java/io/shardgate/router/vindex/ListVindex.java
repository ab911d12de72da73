package io.shardgate.router.vindex;

import io.shardgate.router.shard.ShardRanges;
import io.shardgate.router.value.SqlValue;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * {@code vindex: list}: like MySQL's LIST partitioning, each shard lists its key values,
 * {@code lists: { s0: [eu, uk], s1: [us] }}. A value no list holds has no shard.
 */
public final class ListVindex implements Vindex {
    private final KeyType keyType;
    private final Map<String, List<SqlValue>> valuesByShard;
    private final Map<ShardKey, String> shardByKey;

    /** Throws IllegalArgumentException when a value is not of {@code keyType} or two lists hold equal values. */
    public ListVindex(KeyType keyType, Map<String, List<SqlValue>> valuesByShard) {
        this.keyType = requireNonNull(keyType, "keyType is null");
        requireNonNull(valuesByShard, "valuesByShard is null");
        Map<String, List<SqlValue>> copy = new LinkedHashMap<>();
        Map<ShardKey, String> index = new LinkedHashMap<>();
        valuesByShard.forEach((shard, values) -> {
            copy.put(shard, List.copyOf(values));
            for (SqlValue value : values) {
                if (requireNonNull(value, "lists." + shard + ": null value").isNull()) {
                    throw new IllegalArgumentException("lists." + shard + ": NULL is not a " + keyType + " value");
                }
                ShardKey key = keyType.store(value).orElseThrow(() ->
                        new IllegalArgumentException("lists." + shard + ": '" + value + "' is not a " + keyType + " value"));
                String previous = index.putIfAbsent(key, shard);
                if (previous != null) {
                    throw new IllegalArgumentException("lists." + shard + ": '" + value + "' equals a value listed for shard "
                            + previous + " (under " + keyType + ")");
                }
            }
        });
        if (index.isEmpty()) {
            throw new IllegalArgumentException("lists: at least one value is required");
        }
        this.valuesByShard = Collections.unmodifiableMap(copy);
        this.shardByKey = Map.copyOf(index);
    }

    @Override
    public KeyType keyType() {
        return keyType;
    }

    public Map<String, List<SqlValue>> valuesByShard() {
        return valuesByShard;
    }

    @Override
    public Optional<String> shardOf(ShardKey key, ShardRanges ranges) {
        return Optional.ofNullable(shardByKey.get(requireNonNull(key, "key is null")));
    }

    @Override
    public String describe() {
        return "list(" + keyType + ")";
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ListVindex other && keyType.equals(other.keyType) && shardByKey.equals(other.shardByKey);
    }

    @Override
    public int hashCode() {
        return keyType.hashCode() * 31 + shardByKey.hashCode();
    }

    @Override
    public String toString() {
        return describe() + valuesByShard;
    }
}
