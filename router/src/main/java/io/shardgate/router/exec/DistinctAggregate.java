package io.shardgate.router.exec;

import io.shardgate.router.value.SqlValue;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * {@code COUNT/SUM/AVG(DISTINCT x)} of one group, merged from shards that grouped by x as well and
 * whose rows arrive sorted by x within the group (a {@link MergeSortStream}): equal values are
 * neighbours, so a value counts when it differs from the previous one, and only that one is held.
 * NULLs do not count, as in MySQL. Values are equal as the column's collation says (the shards'
 * GROUP BY and the merge sort use it too).
 */
final class DistinctAggregate {
    private final AggregateFunction function;
    private final int value;
    private final ValueComparator comparator;
    private final int decimals;
    private final boolean floating;
    private SqlValue previous;
    private long count;
    private SqlValue sum = SqlValue.NULL;

    /**
     * @param function COUNT, SUM or AVG
     * @param value    the column of x
     * @param result   the aggregate's own column (the shard's {@code AVG(DISTINCT x)}: its decimals are the result's)
     */
    DistinctAggregate(AggregateFunction function, int value, ColumnMeta valueColumn, ColumnMeta result) {
        this.function = function;
        this.value = value;
        this.comparator = ValueComparator.forColumn(valueColumn, function + "(DISTINCT)");
        this.decimals = result.decimals();
        this.floating = result.kind() == ValueKind.FLOAT;
    }

    void add(Row row) {
        SqlValue x = row.get(value);
        if (x.isNull() || (previous != null && comparator.compare(previous, x) == 0)) {
            return;
        }
        previous = x;
        count++;
        if (function != AggregateFunction.COUNT) {
            sum = Accumulator.sum(sum, x.isNumber() ? x : SqlValue.ofDouble(x.numericPrefix().doubleValue()));
        }
    }

    /** The group's result; resets for the next group. */
    SqlValue finish() {
        SqlValue result = switch (function) {
            case COUNT -> SqlValue.ofLong(count);
            case SUM -> sum;
            case AVG -> average();
            default -> throw new IllegalStateException(function + "(DISTINCT)");
        };
        previous = null;
        count = 0;
        sum = SqlValue.NULL;
        return result;
    }

    private SqlValue average() {
        if (count == 0 || sum.isNull()) {
            return SqlValue.NULL;
        }
        if (floating || sum.type() == SqlValue.Type.FLOAT) {
            return SqlValue.ofDouble(sum.numericOrZero().doubleValue() / count);
        }
        return SqlValue.ofDecimal(sum.numericOrZero().divide(BigDecimal.valueOf(count), decimals, RoundingMode.HALF_UP));
    }
}
