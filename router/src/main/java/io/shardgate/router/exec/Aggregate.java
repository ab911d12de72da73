package io.shardgate.router.exec;

import java.util.Optional;

import static java.util.Objects.requireNonNull;

/**
 * One aggregate column of a merge.
 *
 * @param function how shard values combine
 * @param column   the column holding the shards' partial values (the SUM, for AVG)
 * @param count    for AVG, the helper column holding the shards' COUNT
 */
public record Aggregate(AggregateFunction function, ColumnRef column, Optional<ColumnRef> count) {

    public Aggregate {
        requireNonNull(function, "function is null");
        requireNonNull(column, "column is null");
        requireNonNull(count, "count is null");
        if ((function == AggregateFunction.AVG) != count.isPresent()) {
            throw new IllegalArgumentException("AVG, and only AVG, needs a count column");
        }
    }

    public static Aggregate of(AggregateFunction function, ColumnRef column) {
        return new Aggregate(function, column, Optional.empty());
    }

    public static Aggregate avg(ColumnRef sum, ColumnRef count) {
        return new Aggregate(AggregateFunction.AVG, sum, Optional.of(count));
    }

    @Override
    public String toString() {
        return function + "(" + column + count.map(c -> " / " + c).orElse("") + ")";
    }
}
