package io.shardgate.router.exec;

import io.shardgate.router.collation.Collation;
import io.shardgate.router.collation.Collations;
import io.shardgate.errors.ErrorCode;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Comparator;

import static java.util.Objects.requireNonNull;

/**
 * Orders the values of one column as MySQL's ORDER BY does: NULL before everything, numbers
 * numerically, character strings under the column's collation (so {@code 'a' = 'A'} under a
 * {@code _ci} collation and trailing spaces do not count under PAD SPACE), binary strings byte by
 * byte, temporal values chronologically. Values equal here are equal for GROUP BY and DISTINCT.
 */
public final class ValueComparator implements Comparator<Object> {
    private final ValueKind kind;
    private final Collation collation;

    private ValueComparator(ValueKind kind, Collation collation) {
        this.kind = kind;
        this.collation = collation;
    }

    /**
     * The comparator for {@code column}; {@code use} names what needs it for the error raised when
     * the column's collation is one Shardgate cannot compare.
     */
    public static ValueComparator forColumn(ColumnMeta column, String use) {
        requireNonNull(column, "column is null");
        if (column.kind() != ValueKind.STRING) {
            return new ValueComparator(column.kind(), null);
        }
        Collation collation = column.collation().orElseThrow(() -> ErrorCode.UNSUPPORTED.exception(
                use + " on column '" + column.name() + "' with collation id " + column.collationId()
                        + " across shards (supported: " + String.join(", ", Collations.names()) + ")"));
        return new ValueComparator(ValueKind.STRING, collation);
    }

    @Override
    public int compare(Object a, Object b) {
        if (a == null || b == null) {
            return a == null ? (b == null ? 0 : -1) : 1;
        }
        return switch (kind) {
            case INTEGER, DECIMAL, FLOAT -> compareNumbers(a, b);
            case STRING -> collation.compare(text(a), text(b));
            case BINARY -> Arrays.compareUnsigned(bytes(a), bytes(b));
            case TEMPORAL -> compareTemporal(a, b);
            case OTHER -> text(a).compareTo(text(b));
        };
    }

    /** Numbers of any Java type, exactly; a string is read as a decimal (or 0 when it is not one). */
    static int compareNumbers(Object a, Object b) {
        if (a instanceof Long x && b instanceof Long y) {
            return Long.compare(x, y);
        }
        return decimal(a).compareTo(decimal(b));
    }

    static BigDecimal decimal(Object value) {
        if (value instanceof BigDecimal d) {
            return d;
        }
        if (value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte) {
            return BigDecimal.valueOf(((Number) value).longValue());
        }
        if (value instanceof BigInteger i) {
            return new BigDecimal(i);
        }
        if (value instanceof Double || value instanceof Float) {
            double d = ((Number) value).doubleValue();
            return Double.isFinite(d) ? new BigDecimal(d) : BigDecimal.ZERO;
        }
        if (value instanceof Boolean bool) {
            return bool ? BigDecimal.ONE : BigDecimal.ZERO;
        }
        try {
            return new BigDecimal(text(value).strip());
        }
        catch (NumberFormatException e) {
            return BigDecimal.ZERO;
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static int compareTemporal(Object a, Object b) {
        if (a.getClass() == b.getClass() && a instanceof Comparable comparable) {
            return comparable.compareTo(b);
        }
        return text(a).compareTo(text(b));
    }

    static String text(Object value) {
        return value instanceof byte[] b ? new String(b, StandardCharsets.UTF_8) : value.toString();
    }

    private static byte[] bytes(Object value) {
        return value instanceof byte[] b ? b : value.toString().getBytes(StandardCharsets.UTF_8);
    }
}
