package io.shardgate.router.exec;

import io.shardgate.router.value.SqlValue;

import java.util.Arrays;

/** A row backed by an array it owns. */
final class ArrayRow implements Row {
    private final SqlValue[] values;

    ArrayRow(SqlValue[] values) {
        for (int i = 0; i < values.length; i++) {
            if (values[i] == null) {
                values[i] = SqlValue.NULL;
            }
        }
        this.values = values;
    }

    @Override
    public int size() {
        return values.length;
    }

    @Override
    public SqlValue get(int column) {
        return values[column];
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ArrayRow other && Arrays.equals(values, other.values);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(values);
    }

    @Override
    public String toString() {
        return Arrays.toString(values);
    }
}
