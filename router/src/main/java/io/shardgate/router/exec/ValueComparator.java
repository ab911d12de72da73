package io.shardgate.router.exec;

import io.shardgate.router.collation.Collation;
import io.shardgate.router.collation.Collations;
import io.shardgate.errors.ErrorCode;
import io.shardgate.router.value.SqlValue;

import java.util.Arrays;
import java.util.Comparator;

import static java.util.Objects.requireNonNull;

/**
 * Orders the values of one column as MySQL's ORDER BY does: NULL before everything, numbers
 * numerically, character strings under the column's collation (so {@code 'a' = 'A'} under a
 * {@code _ci} collation and trailing spaces do not count under PAD SPACE), binary strings byte by
 * byte, temporal values chronologically. Values equal here are equal for GROUP BY and DISTINCT.
 */
public final class ValueComparator implements Comparator<SqlValue> {
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
    public int compare(SqlValue a, SqlValue b) {
        if (a.isNull() || b.isNull()) {
            return a.isNull() ? (b.isNull() ? 0 : -1) : 1;
        }
        return switch (kind) {
            case INTEGER, DECIMAL, FLOAT -> compareNumbers(a, b);
            case STRING -> collation.compare(a.comparisonText(), b.comparisonText());
            case BINARY -> Arrays.compareUnsigned(a.comparisonBytes(), b.comparisonBytes());
            case TEMPORAL -> compareTemporal(a, b);
            case OTHER -> a.comparisonText().compareTo(b.comparisonText());
        };
    }

    /** Numbers of any type, exactly; a string is read as a decimal (or 0 when it is not one). */
    static int compareNumbers(SqlValue a, SqlValue b) {
        if (a.type() == SqlValue.Type.INTEGER && b.type() == SqlValue.Type.INTEGER) {
            return Long.compare(a.longValue(), b.longValue());
        }
        return a.numericOrZero().compareTo(b.numericOrZero());
    }

    /** Two values of one Java type by their natural order (text is the text protocol's temporal form); else by text. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static int compareTemporal(SqlValue a, SqlValue b) {
        Object x = a.toJava();
        Object y = b.toJava();
        if (x.getClass() == y.getClass() && x instanceof Comparable comparable) {
            return comparable.compareTo(y);
        }
        return a.comparisonText().compareTo(b.comparisonText());
    }
}
