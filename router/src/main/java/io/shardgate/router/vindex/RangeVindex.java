package io.shardgate.router.vindex;

import io.shardgate.router.shard.ShardRanges;
import io.shardgate.router.value.SqlValue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * {@code vindex: range}: like MySQL's RANGE partitioning, an ordered list of
 * {@code { less_than: VALUE, shard: NAME }}; a key belongs to the first bound it is below. The last
 * bound may have no value (MAXVALUE); without one, keys above the last bound have no shard.
 */
public final class RangeVindex implements Vindex {

    /** Keys below {@code lessThan} ({@link SqlValue#NULL}, or null: all remaining keys) that no earlier bound took go to {@code shard}. */
    public record Bound(SqlValue lessThan, String shard) {
        public Bound {
            lessThan = lessThan == null ? SqlValue.NULL : lessThan;
            requireNonNull(shard, "shard is null");
        }
    }

    private final KeyType keyType;
    private final List<Bound> bounds;
    private final List<ShardKey> limits;

    /** Throws IllegalArgumentException unless the bounds are values of {@code keyType} in increasing order. */
    public RangeVindex(KeyType keyType, List<Bound> bounds) {
        this.keyType = requireNonNull(keyType, "keyType is null");
        this.bounds = List.copyOf(requireNonNull(bounds, "bounds is null"));
        if (this.bounds.isEmpty()) {
            throw new IllegalArgumentException("ranges: at least one bound is required");
        }
        List<ShardKey> keys = new ArrayList<>();
        for (int i = 0; i < this.bounds.size(); i++) {
            SqlValue value = this.bounds.get(i).lessThan();
            if (value.isNull()) {
                if (i != this.bounds.size() - 1) {
                    throw new IllegalArgumentException("ranges[" + i + "]: only the last range may omit less_than");
                }
                keys.add(null);
                continue;
            }
            ShardKey key = keyType.store(value).orElseThrow(() -> new IllegalArgumentException(
                    "ranges[" + keys.size() + "].less_than: '" + value + "' is not a " + keyType + " value"));
            if (!keys.isEmpty() && keys.get(keys.size() - 1).compareTo(key) >= 0) {
                throw new IllegalArgumentException("ranges[" + i + "].less_than: " + key
                        + " must be above the previous bound " + keys.get(keys.size() - 1));
            }
            keys.add(key);
        }
        this.limits = Collections.unmodifiableList(keys);
    }

    @Override
    public KeyType keyType() {
        return keyType;
    }

    public List<Bound> bounds() {
        return bounds;
    }

    @Override
    public Optional<String> shardOf(ShardKey key, ShardRanges ranges) {
        requireNonNull(key, "key is null");
        for (int i = 0; i < limits.size(); i++) {
            ShardKey limit = limits.get(i);
            if (limit == null || key.compareTo(limit) < 0) {
                return Optional.of(bounds.get(i).shard());
            }
        }
        return Optional.empty();
    }

    @Override
    public String describe() {
        return "range(" + keyType + ")";
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RangeVindex other && keyType.equals(other.keyType) && limits.equals(other.limits)
                && bounds.stream().map(Bound::shard).toList().equals(other.bounds.stream().map(Bound::shard).toList());
    }

    @Override
    public int hashCode() {
        return keyType.hashCode() * 31 + limits.hashCode();
    }

    @Override
    public String toString() {
        return describe() + bounds;
    }
}
