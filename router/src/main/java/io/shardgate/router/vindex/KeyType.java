package io.shardgate.router.vindex;

import io.shardgate.router.collation.Collation;
import io.shardgate.router.collation.Collations;
import io.shardgate.router.value.MySqlNumbers;
import io.shardgate.router.value.SqlValue;

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
     * to pin them to (the statement then scatters). A Java null is NULL.
     */
    public Optional<ShardKey> lookup(SqlValue value) {
        if (value == null || value.isNull()) {
            return Optional.empty();
        }
        boolean string = value.type() == SqlValue.Type.TEXT || value.type() == SqlValue.Type.BYTES;
        return switch (kind) {
            case INTEGER -> lookupInteger(value).map(this::integerKey);
            case STRING -> string ? text(value).map(this::stringKey) : Optional.empty();
            case BINARY -> string ? Optional.of(binaryKey(bytes(value))) : Optional.empty();
        };
    }

    /**
     * Whether {@code WHERE key = value} can match no row at all: NULL, or a number with a fraction
     * compared with an integer column. (When {@link #lookup} is empty and this is false, rows with
     * several keys may match, so every shard must be asked.)
     */
    public boolean matchesNoRow(SqlValue value) {
        if (value == null || value.isNull()) {
            return true;
        }
        if (kind != Kind.INTEGER) {
            return false;
        }
        if (value.type() == SqlValue.Type.DECIMAL) {
            return integral(value.decimalValue()).isEmpty();
        }
        double d;
        if (value.type() == SqlValue.Type.FLOAT) {
            d = value.doubleValue();
        }
        else if (value.type() == SqlValue.Type.TEXT) {
            d = MySqlNumbers.parseDoublePrefix(value.text());
        }
        else {
            return false;
        }
        return Double.isFinite(d) && d != Math.rint(d);
    }

    /**
     * The canonical key of the value an INSERT stores for {@code value} under strict mode, or empty
     * when the server would refuse it (error 1366). Not for NULL. A binary key stores a binary
     * string's bytes as they are, whatever they are (they are never decoded), and text as its UTF-8.
     */
    public Optional<ShardKey> store(SqlValue value) {
        requireNonNull(value, "value is null");
        if (value.isNull()) {
            throw new NullPointerException("value is NULL");
        }
        return switch (kind) {
            case INTEGER -> storeInteger(value).map(this::integerKey);
            case STRING -> storedText(value).map(this::stringKey);
            case BINARY -> value.type() == SqlValue.Type.BYTES ? Optional.of(binaryKey(value.bytes()))
                    : storedText(value).map(text -> binaryKey(SqlValue.utf8Bytes(text)));
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
    private static Optional<BigInteger> lookupInteger(SqlValue value) {
        return switch (value.type()) {
            case INTEGER, BIG_INTEGER, BOOLEAN -> Optional.of(value.bigInteger());
            case DECIMAL -> integral(value.decimalValue());
            case FLOAT -> exactDouble(value.doubleValue());
            case TEXT -> exactDouble(MySqlNumbers.parseDoublePrefix(value.text()));
            default -> Optional.empty();
        };
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
    private static Optional<BigInteger> storeInteger(SqlValue value) {
        return switch (value.type()) {
            case DECIMAL -> Optional.of(value.decimalValue().setScale(0, RoundingMode.HALF_UP).toBigIntegerExact());
            case FLOAT -> Double.isFinite(value.doubleValue())
                    ? Optional.of(new BigDecimal(Math.rint(value.doubleValue())).toBigIntegerExact()) : Optional.empty();
            case TEXT -> MySqlNumbers.parseDecimal(value.text()).map(d -> d.setScale(0, RoundingMode.HALF_UP).toBigIntegerExact());
            case BYTES -> Optional.empty();
            default -> lookupInteger(value);
        };
    }

    /** A string column stores numbers as their decimal text; doubles are refused (their text is ambiguous). */
    private static Optional<String> storedText(SqlValue value) {
        return switch (value.type()) {
            case TEXT, BYTES -> text(value);
            case INTEGER, BIG_INTEGER -> Optional.of(value.toJava().toString());
            case DECIMAL -> Optional.of(value.decimalValue().toPlainString());
            case BOOLEAN -> Optional.of(value.booleanValue() ? "1" : "0");
            default -> Optional.empty();
        };
    }

    /** A TEXT value, or a BYTES value that is valid UTF-8 (a character column cannot hold other bytes as given). */
    private static Optional<String> text(SqlValue value) {
        if (value.type() == SqlValue.Type.TEXT) {
            return Optional.of(value.text());
        }
        try {
            return Optional.of(StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(value.bytes())).toString());
        }
        catch (CharacterCodingException e) {
            return Optional.empty();
        }
    }

    /**
     * A binary string's own bytes; text's bytes as the client sent them (Shardgate assumes a utf8mb4
     * connection; see {@link SqlValue#utf8Bytes}), never text re-encoded with its malformed bytes replaced.
     */
    private static byte[] bytes(SqlValue value) {
        return value.type() == SqlValue.Type.BYTES ? value.bytes() : SqlValue.utf8Bytes(value.text());
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
