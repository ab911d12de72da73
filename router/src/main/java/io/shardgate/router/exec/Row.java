package io.shardgate.router.exec;

import java.util.Arrays;
import java.util.List;

/**
 * One result row, values already decoded: {@code Long}, {@code BigInteger} (BIGINT UNSIGNED),
 * {@code BigDecimal}, {@code Double}, {@code String}, {@code byte[]}, a {@code java.time} value or
 * {@code Duration} (TIME), or {@code null} for SQL NULL.
 */
public interface Row {

    int size();

    Object get(int column);

    /** A row of these values. */
    static Row of(Object... values) {
        return new ArrayRow(values.clone());
    }

    /** A row of these values. */
    static Row of(List<?> values) {
        return new ArrayRow(values.toArray());
    }

    /** The values as a list, for tests and EXPLAIN. */
    default List<Object> values() {
        Object[] values = new Object[size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = get(i);
        }
        return Arrays.asList(values);
    }
}
