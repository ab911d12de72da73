package io.shardgate.replication.copy;

import io.shardgate.router.collation.Collation;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Locale;

import static java.util.Objects.requireNonNull;

/**
 * A primary-key column as the copy orders it: how its value is read from a chunk, written in a
 * {@code WHERE pk > ...} bound, and compared in Java with a change-stream value (the catch-up applies
 * only rows at or below the last copied key). Strings compare under the column's collation.
 *
 * @param name      the column
 * @param kind      its ordering kind
 * @param charset   the MariaDB character set of a string column; null otherwise
 * @param collation the collation of a string column; null otherwise
 */
public record KeyColumn(String name, Kind kind, String charset, Collation collation) {
    private static final HexFormat HEX = HexFormat.of().withUpperCase();

    /** How a key column orders. */
    public enum Kind { INTEGER, DECIMAL, TEMPORAL, STRING, BINARY }

    public KeyColumn {
        requireNonNull(name, "name is null");
        requireNonNull(kind, "kind is null");
        if (kind == Kind.STRING && (charset == null || collation == null)) {
            throw new IllegalArgumentException("string key column " + name + " needs a charset and a collation");
        }
    }

    /**
     * The checkpoint form of a value as a chunk read it ({@link ColumnCodec}): text for numbers,
     * temporal values and utf8 strings, the stored bytes for binary strings and other text.
     */
    public PkValue fromRaw(Object raw) {
        requireNonNull(raw, "a primary key value is never NULL");
        return switch (kind) {
            case INTEGER, DECIMAL, TEMPORAL -> new PkValue(kind, raw.toString());
            case STRING -> new PkValue(kind, HEX.formatHex(raw instanceof byte[] bytes ? bytes
                    : raw.toString().getBytes(javaCharset())));
            case BINARY -> new PkValue(kind, HEX.formatHex(bytes(raw)));
        };
    }

    /** Appends {@code value} as an SQL literal that compares with the column as the column orders. */
    public void appendLiteral(StringBuilder sql, PkValue value) {
        check(value);
        switch (kind) {
            case INTEGER, DECIMAL -> sql.append(new BigDecimal(value.value()).toPlainString());
            case TEMPORAL -> sql.append('\'').append(value.value().replaceAll("[^0-9:. -]", "")).append('\'');
            case STRING -> sql.append('_').append(charset).append(" X'").append(value.value()).append('\'');
            case BINARY -> sql.append("X'").append(value.value()).append('\'');
        }
    }

    /**
     * Compares a change-stream value of this column (the types of
     * {@link io.shardgate.replication.stream.RowChange}) with a checkpoint value, as the column orders.
     */
    public int compare(Object streamValue, PkValue bound) {
        requireNonNull(streamValue, "a primary key value is never NULL");
        check(bound);
        return switch (kind) {
            case INTEGER -> new BigInteger(streamValue.toString()).compareTo(new BigInteger(bound.value()));
            case DECIMAL -> new BigDecimal(streamValue.toString()).compareTo(new BigDecimal(bound.value()));
            case TEMPORAL -> normalTemporal(streamValue.toString()).compareTo(normalTemporal(bound.value()));
            case STRING -> collation.compare(text(streamValue), new String(HEX.parseHex(bound.value()), javaCharset()));
            case BINARY -> Arrays.compareUnsigned(bytes(streamValue), HEX.parseHex(bound.value()));
        };
    }

    private void check(PkValue value) {
        if (value.kind() != kind) {
            throw new IllegalArgumentException("key column " + name + " is " + kind + ", the value is " + value.kind());
        }
    }

    private String text(Object value) {
        return value instanceof byte[] raw ? new String(raw, javaCharset()) : value.toString();
    }

    private static byte[] bytes(Object value) {
        return value instanceof byte[] raw ? raw : value.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** Without trailing zeros of a fraction: {@code 10:00:00.500000} and {@code 10:00:00.5} are the same time. */
    static String normalTemporal(String text) {
        if (text.indexOf('.') < 0) {
            return text;
        }
        int end = text.length();
        while (text.charAt(end - 1) == '0') {
            end--;
        }
        if (text.charAt(end - 1) == '.') {
            end--;
        }
        return text.substring(0, end);
    }

    /** The Java charset of this string column's MariaDB character set. */
    public Charset javaCharset() {
        return javaCharset(charset);
    }

    /** The Java charset decoding a MariaDB character set's bytes; MariaDB's latin1 is Windows-1252. */
    static Charset javaCharset(String mariaDbCharset) {
        return switch (mariaDbCharset == null ? "binary" : mariaDbCharset.toLowerCase(Locale.ROOT)) {
            case "utf8mb4", "utf8mb3", "utf8" -> StandardCharsets.UTF_8;
            case "latin1" -> Charset.forName("windows-1252");
            case "ascii" -> StandardCharsets.US_ASCII;
            case "binary" -> StandardCharsets.ISO_8859_1;
            default -> Charset.forName(mariaDbCharset);
        };
    }
}
