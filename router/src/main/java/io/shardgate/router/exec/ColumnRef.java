package io.shardgate.router.exec;

/**
 * A result column by position, counted from the start or, when a {@code *} before it makes its
 * position unknown until the result arrives, from the end (where the planner appends helper columns).
 *
 * @param index   zero-based from the start; or one-based from the end when {@code fromEnd}
 * @param fromEnd whether {@code index} counts from the end
 */
public record ColumnRef(int index, boolean fromEnd) {

    public ColumnRef {
        if (index < (fromEnd ? 1 : 0)) {
            throw new IllegalArgumentException("column index " + index + " out of range");
        }
    }

    /** Column {@code index}, zero-based. */
    public static ColumnRef at(int index) {
        return new ColumnRef(index, false);
    }

    /** The {@code n}-th column from the end; 1 is the last. */
    public static ColumnRef fromEnd(int n) {
        return new ColumnRef(n, true);
    }

    /** The zero-based index in a result of {@code columnCount} columns. */
    public int resolve(int columnCount) {
        int resolved = fromEnd ? columnCount - index : index;
        if (resolved < 0 || resolved >= columnCount) {
            throw new IllegalStateException("column " + this + " is outside a result of " + columnCount + " columns");
        }
        return resolved;
    }

    @Override
    public String toString() {
        return fromEnd ? "#end-" + (index - 1) : "#" + index;
    }
}
