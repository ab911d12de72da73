package io.shardgate.router.value;

import io.shardgate.router.collation.Collation;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.Arrays;
import java.util.Objects;

import static java.util.Objects.requireNonNull;

/**
 * One SQL value as the router and the protocol code hold it: a {@link Type} tag and the Java value
 * of that type (after Vitess' {@code sqltypes.Value}, which is a type tag plus raw bytes). The tag is
 * decided once, by {@link #of}; everything else switches over it instead of testing
 * {@code instanceof}. The coercions MySQL applies when a value of one type is used as another (a
 * string in numeric context, a number compared with a string) live here, each under its own name,
 * and {@link #compare} is the comparison of two values of any types that expressions use.
 *
 * <p>Binary strings are {@link Type#BYTES} and stay bytes: nothing here decodes them to a String
 * and encodes them back. Values are immutable except that a BYTES value shares its array: never
 * change it.
 */
public final class SqlValue {

    /** The kinds of values, by what Java holds for them. */
    public enum Type {
        /** SQL NULL. */
        NULL,
        /** A signed integer that fits 64 bits: {@code Long} (or Integer, Short, Byte). */
        INTEGER,
        /** An integer beyond a signed long (BIGINT UNSIGNED, big literals): {@code BigInteger}. */
        BIG_INTEGER,
        /** DECIMAL: {@code BigDecimal}, its scale kept. */
        DECIMAL,
        /** FLOAT and DOUBLE: {@code Double} (or Float). */
        FLOAT,
        /** TRUE / FALSE: {@code Boolean}. */
        BOOLEAN,
        /** A character string (and temporal text as the text protocol sends it): {@code String}. */
        TEXT,
        /** A binary string: {@code byte[]}, never decoded. */
        BYTES,
        /** A {@code java.time} LocalDate, LocalDateTime, LocalTime, or a Duration (TIME). */
        TEMPORAL
    }

    public static final SqlValue NULL = new SqlValue(Type.NULL, null);

    private final Type type;
    private final Object value;

    private SqlValue(Type type, Object value) {
        this.type = type;
        this.value = value;
    }

    /**
     * The value of a Java object: null, Long/Integer/Short/Byte, BigInteger, BigDecimal, Double/Float,
     * Boolean, String, byte[], LocalDate, LocalDateTime, LocalTime, Duration, or a SqlValue (returned
     * as it is). Anything else is an IllegalArgumentException.
     */
    public static SqlValue of(Object value) {
        if (value == null) {
            return NULL;
        }
        if (value instanceof SqlValue v) {
            return v;
        }
        return new SqlValue(typeOf(value), value);
    }

    private static Type typeOf(Object value) {
        if (value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte) {
            return Type.INTEGER;
        }
        if (value instanceof String) {
            return Type.TEXT;
        }
        if (value instanceof BigDecimal) {
            return Type.DECIMAL;
        }
        if (value instanceof BigInteger) {
            return Type.BIG_INTEGER;
        }
        if (value instanceof Double || value instanceof Float) {
            return Type.FLOAT;
        }
        if (value instanceof byte[]) {
            return Type.BYTES;
        }
        if (value instanceof Boolean) {
            return Type.BOOLEAN;
        }
        if (value instanceof LocalDate || value instanceof LocalDateTime || value instanceof LocalTime || value instanceof Duration) {
            return Type.TEMPORAL;
        }
        throw new IllegalArgumentException("not an SQL value: " + value.getClass().getName());
    }

    public static SqlValue ofLong(long value) {
        return value >= 0 && value < SMALL.length ? SMALL[(int) value] : new SqlValue(Type.INTEGER, value);
    }

    /** 0..255 as INTEGER values, shared: counts, flags and small ids are most of the integers a merge sees. */
    private static final SqlValue[] SMALL = new SqlValue[256];

    static {
        for (int i = 0; i < SMALL.length; i++) {
            SMALL[i] = new SqlValue(Type.INTEGER, (long) i);
        }
    }

    public static SqlValue ofDecimal(BigDecimal value) {
        return new SqlValue(Type.DECIMAL, requireNonNull(value, "value is null"));
    }

    public static SqlValue ofDouble(double value) {
        return new SqlValue(Type.FLOAT, value);
    }

    public static SqlValue ofText(String value) {
        return new SqlValue(Type.TEXT, requireNonNull(value, "value is null"));
    }

    /** A binary string; the array is shared, not copied. */
    public static SqlValue ofBytes(byte[] value) {
        return new SqlValue(Type.BYTES, requireNonNull(value, "value is null"));
    }

    /** A number: a long when it fits, else a BIG_INTEGER. */
    public static SqlValue ofInteger(BigInteger value) {
        return value.bitLength() < Long.SIZE ? ofLong(value.longValue()) : new SqlValue(Type.BIG_INTEGER, value);
    }

    public Type type() {
        return type;
    }

    public boolean isNull() {
        return type == Type.NULL;
    }

    /** INTEGER, BIG_INTEGER, DECIMAL or FLOAT. */
    public boolean isNumber() {
        return type == Type.INTEGER || type == Type.BIG_INTEGER || type == Type.DECIMAL || type == Type.FLOAT;
    }

    /** INTEGER or BIG_INTEGER. */
    public boolean isInteger() {
        return type == Type.INTEGER || type == Type.BIG_INTEGER;
    }

    /** The Java value (null for NULL): for the edges that speak Java objects, tests and EXPLAIN. */
    public Object toJava() {
        return value;
    }

    // ---- typed accessors: each only for its type ----

    /** An INTEGER's value. */
    public long longValue() {
        return ((Number) expect(Type.INTEGER)).longValue();
    }

    /** A FLOAT's value. */
    public double doubleValue() {
        return ((Number) expect(Type.FLOAT)).doubleValue();
    }

    /** A DECIMAL's value. */
    public BigDecimal decimalValue() {
        return (BigDecimal) expect(Type.DECIMAL);
    }

    /** A BOOLEAN's value. */
    public boolean booleanValue() {
        return (Boolean) expect(Type.BOOLEAN);
    }

    /** A TEXT's value. */
    public String text() {
        return (String) expect(Type.TEXT);
    }

    /** A BYTES value's bytes (shared, not copied). */
    public byte[] bytes() {
        return (byte[]) expect(Type.BYTES);
    }

    /** An INTEGER or BIG_INTEGER (or BOOLEAN, as 1 / 0) exactly. */
    public BigInteger bigInteger() {
        return switch (type) {
            case INTEGER -> BigInteger.valueOf(longValue());
            case BIG_INTEGER -> (BigInteger) value;
            case BOOLEAN -> booleanValue() ? BigInteger.ONE : BigInteger.ZERO;
            default -> throw wrongType("an integer");
        };
    }

    private Object expect(Type expected) {
        if (type != expected) {
            throw wrongType("a " + expected);
        }
        return value;
    }

    private IllegalStateException wrongType(String expected) {
        return new IllegalStateException("a " + type + " value is not " + expected);
    }

    // ---- coercions, each as MySQL applies it somewhere ----

    /**
     * A number or BOOLEAN exactly (a double's exact binary value, non-finite doubles as 0); for other
     * types null.
     */
    public BigDecimal exactDecimal() {
        return switch (type) {
            case INTEGER -> BigDecimal.valueOf(longValue());
            case BIG_INTEGER -> new BigDecimal((BigInteger) value);
            case DECIMAL -> decimalValue();
            case FLOAT -> Double.isFinite(doubleValue()) ? new BigDecimal(doubleValue()) : BigDecimal.ZERO;
            case BOOLEAN -> booleanValue() ? BigDecimal.ONE : BigDecimal.ZERO;
            default -> null;
        };
    }

    /**
     * The value in numeric expression context (HAVING arithmetic and comparisons): numbers exactly, a
     * string's longest numeric prefix (0 without one), a binary string's as its UTF-8 text's, a
     * temporal value's as its text's. Not for NULL.
     */
    public BigDecimal numericPrefix() {
        BigDecimal exact = exactDecimal();
        return exact != null ? exact : MySqlNumbers.decimalPrefix(comparisonText());
    }

    /**
     * The value compared as a number by a merge of a numeric column: numbers exactly, text (or UTF-8
     * bytes) that is a decimal number after stripping spaces, else 0. Not for NULL.
     */
    public BigDecimal numericOrZero() {
        BigDecimal exact = exactDecimal();
        if (exact != null) {
            return exact;
        }
        try {
            return new BigDecimal(comparisonText().strip());
        }
        catch (NumberFormatException e) {
            return BigDecimal.ZERO;
        }
    }

    /** The text a comparison uses: a binary string's bytes read as UTF-8, any other value's Java text. Not for NULL. */
    public String comparisonText() {
        return type == Type.BYTES ? new String(bytes(), StandardCharsets.UTF_8) : value.toString();
    }

    /** The bytes a binary comparison uses: a binary string's own, any other value's text as {@link #utf8Bytes}. Not for NULL. */
    public byte[] comparisonBytes() {
        return type == Type.BYTES ? bytes() : utf8Bytes(value.toString());
    }

    /**
     * The bytes of statement text from a utf8mb4 (or utf8mb3) client: its UTF-8, except that a lone
     * surrogate U+DC80..U+DCFF is the malformed byte 0x80..0xFF it stands for (proxy-core's
     * {@code ClientCharset} decodes malformed bytes that way, Python's {@code surrogateescape}). So
     * the bytes a client sent in a string come back exactly, valid UTF-8 or not.
     */
    public static byte[] utf8Bytes(String text) {
        int escape = firstEscape(text, 0);
        if (escape < 0) {
            return text.getBytes(StandardCharsets.UTF_8);
        }
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream(text.length() + 8);
        int from = 0;
        while (escape >= 0) {
            out.writeBytes(text.substring(from, escape).getBytes(StandardCharsets.UTF_8));
            out.write(text.charAt(escape) & 0xFF);
            from = escape + 1;
            escape = firstEscape(text, from);
        }
        out.writeBytes(text.substring(from).getBytes(StandardCharsets.UTF_8));
        return out.toByteArray();
    }

    /** The index of the first escaped byte (a low surrogate U+DC80..U+DCFF not after a high one) from {@code from}, or -1. */
    private static int firstEscape(String text, int from) {
        for (int i = from; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c >= 0xDC80 && c <= 0xDCFF && (i == 0 || !Character.isHighSurrogate(text.charAt(i - 1)))) {
                return i;
            }
        }
        return -1;
    }

    /** Whether a condition with this value lets a row through: TRUE, or a non-zero number or numeric string. */
    public boolean isTrue() {
        return switch (type) {
            case NULL -> false;
            case BOOLEAN -> booleanValue();
            case INTEGER, BIG_INTEGER, DECIMAL, FLOAT, TEXT -> numericPrefix().signum() != 0;
            default -> true;
        };
    }

    /**
     * Two non-NULL values compared as MySQL compares them in an expression: two strings under
     * {@code collation}; a binary string with anything byte by byte; a number (or BOOLEAN) with
     * anything as numbers, a string read by its numeric prefix; else by their text.
     */
    public static int compare(SqlValue a, SqlValue b, Collation collation) {
        if (a.type == Type.TEXT && b.type == Type.TEXT) {
            return collation.compare(a.text(), b.text());
        }
        if (a.type == Type.BYTES || b.type == Type.BYTES) {
            return Arrays.compareUnsigned(a.comparisonBytes(), b.comparisonBytes());
        }
        if (a.isNumber() || b.isNumber() || a.type == Type.BOOLEAN || b.type == Type.BOOLEAN) {
            return a.numericPrefix().compareTo(b.numericPrefix());
        }
        return a.value.toString().compareTo(b.value.toString());
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SqlValue other && type == other.type && Objects.deepEquals(value, other.value);
    }

    @Override
    public int hashCode() {
        return value instanceof byte[] bytes ? Arrays.hashCode(bytes) : Objects.hashCode(value);
    }

    /** The Java value's text ({@code null} for NULL); a binary string as a hex literal, {@code X'FF00'}. */
    @Override
    public String toString() {
        return value instanceof byte[] bytes ? "X'" + java.util.HexFormat.of().withUpperCase().formatHex(bytes) + "'" : String.valueOf(value);
    }
}
