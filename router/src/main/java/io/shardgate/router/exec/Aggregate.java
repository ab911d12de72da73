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
public record Aggregate(AggregateFunction function, ColumnRef column, Optional<ColumnRef> count, Optional<ColumnRef> distinct,
                        Optional<Concat> concat) {

    /**
     * How a GROUP_CONCAT merges: the shards group by its arguments and ORDER BY keys too, and the input arrives
     * in the GROUP_CONCAT's order within a group.
     *
     * @param arguments the helper columns of its arguments (a DISTINCT one skips a row whose arguments equal the previous row's)
     * @param maxLength the helper column {@code @@group_concat_max_len}: the result is cut to that many bytes
     * @param separator its SEPARATOR
     * @param distinct  whether it is GROUP_CONCAT(DISTINCT ...)
     */
    public record Concat(java.util.List<ColumnRef> arguments, ColumnRef maxLength, String separator, boolean distinct) {
        public Concat {
            arguments = java.util.List.copyOf(arguments);
            requireNonNull(maxLength, "maxLength is null");
            requireNonNull(separator, "separator is null");
        }
    }

    public Aggregate(AggregateFunction function, ColumnRef column, Optional<ColumnRef> count, Optional<ColumnRef> distinct) {
        this(function, column, count, distinct, Optional.empty());
    }

    public Aggregate {
        requireNonNull(function, "function is null");
        requireNonNull(column, "column is null");
        requireNonNull(count, "count is null");
        requireNonNull(distinct, "distinct is null");
        requireNonNull(concat, "concat is null");
        if ((function == AggregateFunction.GROUP_CONCAT) != concat.isPresent()) {
            throw new IllegalArgumentException("GROUP_CONCAT, and only it, needs its concat columns");
        }
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

    /** A GROUP_CONCAT in {@code column}. */
    public static Aggregate concat(ColumnRef column, Concat concat) {
        return new Aggregate(AggregateFunction.GROUP_CONCAT, column, Optional.empty(), Optional.empty(), Optional.of(concat));
    }

    @Override
    public String toString() {
        if (concat.isPresent()) {
            return "GROUP_CONCAT(" + (concat.get().distinct() ? "DISTINCT " : "") + concat.get().arguments() + " in " + column
                    + " SEPARATOR '" + concat.get().separator() + "' max " + concat.get().maxLength() + ")";
        }
        return function + "(" + distinct.map(d -> "DISTINCT " + d + " in ").orElse("") + column + count.map(c -> " / " + c).orElse("") + ")";
    }
}
