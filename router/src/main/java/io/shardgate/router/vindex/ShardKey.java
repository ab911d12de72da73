package io.shardgate.router.vindex;

import java.util.Arrays;
import java.util.HexFormat;

import static java.util.Objects.requireNonNull;

/**
 * A shard key value in canonical form: values equal under the key column's type and collation
 * have equal {@link #canonical()} bytes, which is what {@link HashVindex} hashes. Made by
 * {@link KeyType#lookup} or {@link KeyType#store}. Equality is by canonical bytes.
 */
public final class ShardKey implements Comparable<ShardKey> {
    private final KeyType type;
    private final byte[] canonical;
    private final Object value;

    ShardKey(KeyType type, byte[] canonical, Object value) {
        this.type = requireNonNull(type, "type is null");
        this.canonical = requireNonNull(canonical, "canonical is null");
        this.value = requireNonNull(value, "value is null");
    }

    public KeyType type() {
        return type;
    }

    /** The canonical bytes (a copy). */
    public byte[] canonical() {
        return canonical.clone();
    }

    byte[] canonicalBytes() {
        return canonical;
    }

    /** The value in the type's normal form: a {@code BigInteger}, a {@code String} or a {@code byte[]}. */
    Object value() {
        return value;
    }

    /** Orders as the column does: integers numerically, strings by collation, binary byte by byte. */
    @Override
    public int compareTo(ShardKey other) {
        if (!type.equals(other.type)) {
            throw new IllegalArgumentException("cannot compare a " + type + " key with a " + other.type + " key");
        }
        return type.compare(this, other);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ShardKey other && type.equals(other.type) && Arrays.equals(canonical, other.canonical);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(canonical);
    }

    @Override
    public String toString() {
        return value instanceof byte[] bytes ? "0x" + HexFormat.of().formatHex(bytes) : value.toString();
    }
}
