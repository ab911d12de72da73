package io.shardgate.router.vindex;

import io.shardgate.router.collation.Collation;
import io.shardgate.router.collation.Collations;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * The SQL type of a shard key column, which decides when two values are equal and so must live on
 * the same shard. Config: {@code key_type: integer | string | binary}, and {@code collation} for
 * strings. docs/sharding.md gives the canonical forms with examples.
 *
 * <p>Two readings of a value: {@link #lookup} is how the server compares a column with a value in
 * {@code WHERE key = value} (empty when the matching rows cannot be pinned to one canonical value,
 * and the statement must scatter); {@link #store} is the value an {@code INSERT} stores (empty when
 * the server would refuse the value in strict mode).
 */
public final class KeyType {

    /** The kinds of shard key columns. */
    public enum Kind {
        /** TINYINT .. BIGINT, signed or unsigned. */
        INTEGER,
        /** CHAR, VARCHAR, TEXT under a collation of {@link Collations}. */
        STRING,
        /** VARBINARY and BLOB: bytes, no padding. */
        BINARY
    }

    /** Doubles are exact integers only below this magnitude. */
    private static final double EXACT_DOUBLE = 9007199254740992.0;

    public static final KeyType INTEGER = new KeyType(Kind.INTEGER, null);
    public static final KeyType BINARY = new KeyType(Kind.BINARY, null);

    private final Kind kind;
    private final Collation collation;

    private KeyType(Kind kind, Collation collation) {
        this.kind = kind;
        this.collation = collation;
    }

    /** A string key under {@code collation}. */
    public static KeyType string(Collation collation) {
        return new KeyType(Kind.STRING, requireNonNull(collation, "collation is null"));
    }

    /**
     * From config: {@code name} is {@code integer}, {@code string} or {@code binary}; {@code collation}
     * (only for strings; {@code utf8mb4_general_ci} when null) names a collation of {@link Collations}.
     */
    public static KeyType of(String name, String collation) {
        requireNonNull(name, "name is null");
        switch (name.toLowerCase(Locale.ROOT)) {
            case "integer" -> {
                requireNoCollation(name, collation);
                return INTEGER;
            }
            case "binary" -> {
                requireNoCollation(name, collation);
                return BINARY;
            }
            case "string" -> {
                if (collation == null) {
                    return string(Collations.UTF8MB4_GENERAL_CI);
                }
                return string(Collations.byName(collation).orElseThrow(() -> new IllegalArgumentException(
                        "collation '" + collation + "' is not supported for shard keys; supported: " + Collations.names())));
            }
            default -> throw new IllegalArgumentException("key type '" + name + "' must be integer, string or binary");
        }
    }

    private static void requireNoCollation(String name, String collation) {
        if (collation != null) {
            throw new IllegalArgumentException("a collation applies to string keys, not to " + name + " keys");
        }
    }

    public Kind kind() {
        return kind;
    }

    /** The collation of a string key; empty for other kinds. */
    public Optional<Collation> collation() {
        return Optional.ofNullable(collation);
    }

    /**
     * The canonical key of the rows {@code WHERE key = value} matches, or empty when there is none
     * to pin them to (the statement then scatters). {@code value} is a literal or parameter as Java
     * sees it: Long, BigInteger, BigDecimal, Double, String, byte[], Boolean, or null.
     */
    public Optional<ShardKey> lookup(Object value) {
        if (value == null) {
            return Optional.empty();
        }
        return switch (kind) {
            case INTEGER -> lookupInteger(value).map(this::integerKey);
            case STRING -> (value instanceof String || value instanceof byte[]) ? text(value).map(this::stringKey) : Optional.empty();
            case BINARY -> (value instanceof String || value instanceof byte[]) ? Optional.of(binaryKey(bytes(value))) : Optional.empty();
        };
    }

    /**
     * Whether {@code WHERE key = value} can match no row at all: NULL, or a number with a fraction
     * compared with an integer column. (When {@link #lookup} is empty and this is false, rows with
     * several keys may match, so every shard must be asked.)
     */
    public boolean matchesNoRow(Object value) {
        if (value == null) {
            return true;
        }
        if (kind != Kind.INTEGER) {
            return false;
        }
        double d;
        if (value instanceof BigDecimal decimal) {
            return integral(decimal).isEmpty();
        }
        else if (value instanceof Double || value instanceof Float) {
            d = ((Number) value).doubleValue();
        }
        else if (value instanceof String s) {
            d = MySqlNumbers.parseDoublePrefix(s);
        }
        else {
            return false;
        }
        return Double.isFinite(d) && d != Math.rint(d);
    }

    /**
     * The canonical key of the value an INSERT stores for {@code value} under strict mode, or empty
     * when the server would refuse it (error 1366). Not for NULL.
     */
    public Optional<ShardKey> store(Object value) {
        requireNonNull(value, "value is null");
        return switch (kind) {
            case INTEGER -> storeInteger(value).map(this::integerKey);
            case STRING -> storedText(value).map(this::stringKey);
            case BINARY -> storedText(value).map(text -> binaryKey(value instanceof byte[] b ? b : text.getBytes(StandardCharsets.UTF_8)));
        };
    }

    int compare(ShardKey a, ShardKey b) {
        return switch (kind) {
            case INTEGER -> ((BigInteger) a.value()).compareTo((BigInteger) b.value());
            case STRING -> collation.compare((String) a.value(), (String) b.value());
            case BINARY -> Arrays.compareUnsigned((byte[]) a.value(), (byte[]) b.value());
        };
    }

    private ShardKey integerKey(BigInteger value) {
        return new ShardKey(this, value.toString().getBytes(StandardCharsets.US_ASCII), value);
    }

    private ShardKey stringKey(String value) {
        return new ShardKey(this, collation.sortKey(value), value);
    }

    private ShardKey binaryKey(byte[] value) {
        return new ShardKey(this, value.clone(), value.clone());
    }

    /** An INT column equals a decimal exactly, and a double or a string as doubles (MySQL's comparison rules). */
    private static Optional<BigInteger> lookupInteger(Object value) {
        if (value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte) {
            return Optional.of(BigInteger.valueOf(((Number) value).longValue()));
        }
        if (value instanceof BigInteger big) {
            return Optional.of(big);
        }
        if (value instanceof BigDecimal decimal) {
            return integral(decimal);
        }
        if (value instanceof Boolean bool) {
            return Optional.of(bool ? BigInteger.ONE : BigInteger.ZERO);
        }
        if (value instanceof Double || value instanceof Float) {
            return exactDouble(((Number) value).doubleValue());
        }
        if (value instanceof String s) {
            return exactDouble(MySqlNumbers.parseDoublePrefix(s));
        }
        return Optional.empty();
    }

    private static Optional<BigInteger> exactDouble(double d) {
        if (!Double.isFinite(d) || Math.abs(d) >= EXACT_DOUBLE || d != Math.rint(d)) {
            return Optional.empty();
        }
        return Optional.of(BigInteger.valueOf((long) d));
    }

    private static Optional<BigInteger> integral(BigDecimal decimal) {
        BigDecimal stripped = decimal.stripTrailingZeros();
        return stripped.scale() <= 0 ? Optional.of(stripped.toBigIntegerExact()) : Optional.empty();
    }

    /** Decimals and numeric strings round half away from zero, doubles half to even, as MariaDB stores them. */
    private static Optional<BigInteger> storeInteger(Object value) {
        if (value instanceof BigDecimal decimal) {
            return Optional.of(decimal.setScale(0, RoundingMode.HALF_UP).toBigIntegerExact());
        }
        if (value instanceof Double || value instanceof Float) {
            double d = ((Number) value).doubleValue();
            return Double.isFinite(d) ? Optional.of(new BigDecimal(Math.rint(d)).toBigIntegerExact()) : Optional.empty();
        }
        if (value instanceof String s) {
            return MySqlNumbers.parseDecimal(s).map(d -> d.setScale(0, RoundingMode.HALF_UP).toBigIntegerExact());
        }
        if (value instanceof byte[]) {
            return Optional.empty();
        }
        return lookupInteger(value);
    }

    /** A string column stores numbers as their decimal text; doubles are refused (their text is ambiguous). */
    private static Optional<String> storedText(Object value) {
        if (value instanceof String || value instanceof byte[]) {
            return text(value);
        }
        if (value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte
                || value instanceof BigInteger) {
            return Optional.of(value.toString());
        }
        if (value instanceof BigDecimal decimal) {
            return Optional.of(decimal.toPlainString());
        }
        if (value instanceof Boolean bool) {
            return Optional.of(bool ? "1" : "0");
        }
        return Optional.empty();
    }

    /** A String, or a byte[] that is valid UTF-8. */
    private static Optional<String> text(Object value) {
        if (value instanceof String s) {
            return Optional.of(s);
        }
        try {
            return Optional.of(StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap((byte[]) value)).toString());
        }
        catch (CharacterCodingException e) {
            return Optional.empty();
        }
    }

    private static byte[] bytes(Object value) {
        return value instanceof byte[] b ? b : ((String) value).getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof KeyType other && kind == other.kind && Objects.equals(collationId(), other.collationId());
    }

    private Integer collationId() {
        return collation == null ? null : collation.id();
    }

    @Override
    public int hashCode() {
        return Objects.hash(kind, collationId());
    }

    @Override
    public String toString() {
        return collation == null ? kind.name().toLowerCase(Locale.ROOT) : "string " + collation.name();
    }
}
