package io.shardgate.router.exec;

import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * One aggregate column of a merge.
 *
 * @param function how shard values combine
 * @param column   the column holding the shards' partial values (the SUM, for AVG)
 * @param count    for AVG, the helper column holding the shards' COUNT
 * @param distinct for {@code COUNT/SUM/AVG(DISTINCT x)}, the helper column holding {@code x}: the shards group by
 *                 it too and the input arrives sorted by it within a group, so each value is counted once
 *                 when it first appears ({@code column} keeps the shard's own column for its metadata)
 */
public record Aggregate(AggregateFunction function, ColumnRef column, Optional<ColumnRef> count, Optional<ColumnRef> distinct) {

    public Aggregate {
        requireNonNull(function, "function is null");
        requireNonNull(column, "column is null");
        requireNonNull(count, "count is null");
        requireNonNull(distinct, "distinct is null");
        if ((function == AggregateFunction.AVG && distinct.isEmpty()) != count.isPresent()) {
            throw new IllegalArgumentException("AVG, and only AVG, needs a count column (AVG(DISTINCT) none)");
        }
        if (distinct.isPresent() && function != AggregateFunction.COUNT && function != AggregateFunction.SUM
                && function != AggregateFunction.AVG) {
            throw new IllegalArgumentException(function + " has no DISTINCT form to merge");
        }
    }

    public static Aggregate of(AggregateFunction function, ColumnRef column) {
        return new Aggregate(function, column, Optional.empty(), Optional.empty());
    }

    public static Aggregate avg(ColumnRef sum, ColumnRef count) {
        return new Aggregate(AggregateFunction.AVG, sum, Optional.of(count), Optional.empty());
    }

    /** {@code function(DISTINCT x)}, {@code x} in column {@code value}. */
    public static Aggregate distinct(AggregateFunction function, ColumnRef column, ColumnRef value) {
        return new Aggregate(function, column, Optional.empty(), Optional.of(value));
    }

    @Override
    public String toString() {
        return function + "(" + distinct.map(d -> "DISTINCT " + d + " in ").orElse("") + column + count.map(c -> " / " + c).orElse("") + ")";
    }
}
