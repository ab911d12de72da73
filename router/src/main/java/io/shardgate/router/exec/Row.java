package io.shardgate.router.exec;

import io.shardgate.router.value.SqlValue;

import java.util.Arrays;
import java.util.List;

/**
 * One result row, values already decoded into {@link SqlValue}s ({@link SqlValue#NULL} for SQL NULL).
 */
public interface Row {

    int size();

    /** The value of a column: never a Java null ({@link SqlValue#NULL} instead). */
    SqlValue get(int column);

    /** A row of these Java values (see {@link SqlValue#of}). */
    static Row of(Object... values) {
        SqlValue[] row = new SqlValue[values.length];
        for (int i = 0; i < row.length; i++) {
            row[i] = SqlValue.of(values[i]);
        }
        return new ArrayRow(row);
    }

    /** A row of these Java values (see {@link SqlValue#of}). */
    static Row of(List<?> values) {
        return of(values.toArray());
    }

    /** A row of these values; the array is the row's from now on. */
    static Row wrap(SqlValue[] values) {
        return new ArrayRow(values);
    }

    /** The Java values (null for NULL) as a list, for tests and EXPLAIN. */
    default List<Object> values() {
        Object[] values = new Object[size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = get(i).toJava();
        }
        return Arrays.asList(values);
    }
}
