package io.shardgate.router.exec;

import static java.util.Objects.requireNonNull;

/**
 * One ORDER BY key of a merge: a result column and its direction.
 *
 * @param column     the column
 * @param descending DESC
 */
public record SortKey(ColumnRef column, boolean descending) {
    public SortKey {
        requireNonNull(column, "column is null");
    }

    @Override
    public String toString() {
        return column + (descending ? " DESC" : " ASC");
    }
}
