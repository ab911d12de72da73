package io.shardgate.router.exec;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;

/**
 * Combines the partial aggregates of the rows of one group (or of the whole result, without GROUP BY):
 * the group's first row gives the non-aggregate columns, each aggregate column is merged.
 */
final class Accumulator {
    /** MySQL's div_precision_increment: AVG of an integer or decimal has 4 more decimals than its SUM. */
    static final int AVG_EXTRA_SCALE = 4;

    private final List<ColumnMeta> columns;
    private final int[] targets;
    private final int[] counts;
    private final AggregateFunction[] functions;
    private final ValueComparator[] comparators;
    private Object[] values;
    private long[] avgCounts;

    Accumulator(List<Aggregate> aggregates, List<ColumnMeta> columns) {
        this.columns = columns;
        int n = aggregates.size();
        targets = new int[n];
        counts = new int[n];
        functions = new AggregateFunction[n];
        comparators = new ValueComparator[n];
        for (int i = 0; i < n; i++) {
            Aggregate aggregate = aggregates.get(i);
            functions[i] = aggregate.function();
            targets[i] = aggregate.column().resolve(columns.size());
            counts[i] = aggregate.count().map(c -> c.resolve(columns.size())).orElse(-1);
            if (functions[i] == AggregateFunction.MIN || functions[i] == AggregateFunction.MAX) {
                comparators[i] = ValueComparator.forColumn(columns.get(targets[i]), functions[i].name());
            }
        }
    }

    /** The result columns: AVG columns get 4 more decimals. */
    List<ColumnMeta> resultColumns() {
        List<ColumnMeta> result = new ArrayList<>(columns);
        for (int i = 0; i < functions.length; i++) {
            if (functions[i] == AggregateFunction.AVG) {
                ColumnMeta sum = columns.get(targets[i]);
                int decimals = sum.kind() == ValueKind.FLOAT ? sum.decimals() : Math.min(sum.decimals() + AVG_EXTRA_SCALE, 30);
                result.set(targets[i], new ColumnMeta(sum.name(), sum.kind() == ValueKind.FLOAT ? ValueKind.FLOAT : ValueKind.DECIMAL,
                        sum.collationId(), decimals));
            }
        }
        return result;
    }

    boolean isEmpty() {
        return values == null;
    }

    void add(Row row) {
        if (values == null) {
            values = new Object[row.size()];
            for (int c = 0; c < values.length; c++) {
                values[c] = row.get(c);
            }
            avgCounts = new long[functions.length];
            for (int i = 0; i < functions.length; i++) {
                if (counts[i] >= 0) {
                    avgCounts[i] = count(row.get(counts[i]));
                }
            }
            return;
        }
        for (int i = 0; i < functions.length; i++) {
            int c = targets[i];
            Object value = row.get(c);
            switch (functions[i]) {
                case COUNT -> values[c] = count(values[c]) + count(value);
                case SUM -> values[c] = sum(values[c], value);
                case AVG -> {
                    values[c] = sum(values[c], value);
                    avgCounts[i] += count(row.get(counts[i]));
                }
                case MIN -> values[c] = pick(comparators[i], values[c], value, true);
                case MAX -> values[c] = pick(comparators[i], values[c], value, false);
            }
        }
    }

    /** The merged row; resets for the next group. Without any row: COUNT 0 and NULL elsewhere, as MySQL answers an empty table. */
    Row finish() {
        Object[] result = values != null ? values : new Object[columns.size()];
        for (int i = 0; i < functions.length; i++) {
            int c = targets[i];
            if (values == null) {
                result[c] = functions[i] == AggregateFunction.COUNT ? (Object) 0L : null;
            }
            else if (functions[i] == AggregateFunction.AVG) {
                result[c] = average(result[c], avgCounts[i]);
                result[counts[i]] = avgCounts[i];
            }
            else if (functions[i] == AggregateFunction.COUNT) {
                result[c] = count(result[c]);
            }
        }
        values = null;
        return new ArrayRow(result);
    }

    private static long count(Object value) {
        return value == null ? 0 : ((Number) value).longValue();
    }

    static Object sum(Object a, Object b) {
        if (a == null || b == null) {
            return a == null ? b : a;
        }
        if (a instanceof Double || b instanceof Double || a instanceof Float || b instanceof Float) {
            return ((Number) a).doubleValue() + ((Number) b).doubleValue();
        }
        if (a instanceof Long x && b instanceof Long y) {
            long r = x + y;
            if (((x ^ r) & (y ^ r)) >= 0) {
                return r;
            }
        }
        return ValueComparator.decimal(a).add(ValueComparator.decimal(b));
    }

    private static Object average(Object sum, long count) {
        if (sum == null || count == 0) {
            return null;
        }
        if (sum instanceof Double || sum instanceof Float) {
            return ((Number) sum).doubleValue() / count;
        }
        BigDecimal total = ValueComparator.decimal(sum);
        int scale = Math.min(Math.max(total.scale(), 0) + AVG_EXTRA_SCALE, 30);
        return total.divide(BigDecimal.valueOf(count), scale, RoundingMode.HALF_UP);
    }

    private static Object pick(ValueComparator comparator, Object current, Object candidate, boolean min) {
        if (candidate == null) {
            return current;
        }
        if (current == null) {
            return candidate;
        }
        int order = comparator.compare(candidate, current);
        return (min ? order < 0 : order > 0) ? candidate : current;
    }
}
