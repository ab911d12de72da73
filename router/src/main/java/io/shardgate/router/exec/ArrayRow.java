package io.shardgate.router.exec;

import java.util.Arrays;

/** A row backed by an array it owns. */
final class ArrayRow implements Row {
    private final Object[] values;

    ArrayRow(Object[] values) {
        this.values = values;
    }

    @Override
    public int size() {
        return values.length;
    }

    @Override
    public Object get(int column) {
        return values[column];
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ArrayRow other && Arrays.deepEquals(values, other.values);
    }

    @Override
    public int hashCode() {
        return Arrays.deepHashCode(values);
    }

    @Override
    public String toString() {
        return Arrays.deepToString(values);
    }
}
