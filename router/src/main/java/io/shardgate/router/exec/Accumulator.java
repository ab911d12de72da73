package io.shardgate.router.exec;

import io.shardgate.router.value.SqlValue;

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
    private final DistinctAggregate[] distincts;
    private final ConcatAggregate[] concats;
    private SqlValue[] values;
    private long[] avgCounts;

    Accumulator(List<Aggregate> aggregates, List<ColumnMeta> columns) {
        this.columns = columns;
        int n = aggregates.size();
        targets = new int[n];
        counts = new int[n];
        functions = new AggregateFunction[n];
        comparators = new ValueComparator[n];
        distincts = new DistinctAggregate[n];
        concats = new ConcatAggregate[n];
        for (int i = 0; i < n; i++) {
            Aggregate aggregate = aggregates.get(i);
            functions[i] = aggregate.function();
            targets[i] = aggregate.column().resolve(columns.size());
            if (aggregate.concat().isPresent()) {
                concats[i] = new ConcatAggregate(aggregate, columns);
            }
            if (aggregate.distinct().isPresent()) {
                int value = aggregate.distinct().get().resolve(columns.size());
                distincts[i] = new DistinctAggregate(functions[i], value, columns.get(value), columns.get(targets[i]));
            }
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
            if (functions[i] == AggregateFunction.AVG && distincts[i] == null) {
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
        for (int i = 0; i < functions.length; i++) {
            if (distincts[i] != null) {
                distincts[i].add(row);
            }
            if (concats[i] != null) {
                concats[i].add(row);
            }
        }
        if (values == null) {
            values = new SqlValue[row.size()];
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
            SqlValue value = row.get(c);
            if (distincts[i] != null || concats[i] != null) {
                continue;
            }
            switch (functions[i]) {
                case COUNT -> values[c] = SqlValue.ofLong(count(values[c]) + count(value));
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
        SqlValue[] result = values != null ? values : new SqlValue[columns.size()];
        for (int i = 0; i < functions.length; i++) {
            int c = targets[i];
            if (distincts[i] != null) {
                result[c] = distincts[i].finish();
            }
            else if (concats[i] != null) {
                result[c] = concats[i].finish();
            }
            else if (values == null) {
                result[c] = functions[i] == AggregateFunction.COUNT ? SqlValue.ofLong(0) : SqlValue.NULL;
            }
            else if (functions[i] == AggregateFunction.AVG) {
                result[c] = average(result[c], avgCounts[i]);
                result[counts[i]] = SqlValue.ofLong(avgCounts[i]);
            }
            else if (functions[i] == AggregateFunction.COUNT) {
                result[c] = SqlValue.ofLong(count(result[c]));
            }
        }
        values = null;
        return new ArrayRow(result);
    }

    /** A COUNT column's value: NULL (a shard without rows, under some plans) counts 0. */
    private static long count(SqlValue value) {
        return value.isNull() ? 0 : value.type() == SqlValue.Type.INTEGER ? value.longValue() : asNumber(value).longValue();
    }

    /** SUM of two partial sums: doubles add as doubles, longs as longs unless that overflows, else exactly. */
    static SqlValue sum(SqlValue a, SqlValue b) {
        if (a.isNull() || b.isNull()) {
            return a.isNull() ? b : a;
        }
        if (a.type() == SqlValue.Type.FLOAT || b.type() == SqlValue.Type.FLOAT) {
            return SqlValue.ofDouble(asDouble(a) + asDouble(b));
        }
        if (a.type() == SqlValue.Type.INTEGER && b.type() == SqlValue.Type.INTEGER) {
            long x = a.longValue();
            long y = b.longValue();
            long r = x + y;
            if (((x ^ r) & (y ^ r)) >= 0) {
                return SqlValue.ofLong(r);
            }
        }
        return SqlValue.ofDecimal(a.numericOrZero().add(b.numericOrZero()));
    }

    private static double asDouble(SqlValue number) {
        return asNumber(number).doubleValue();
    }

    /** A partial aggregate is a number; anything else is a shard's answer this merge cannot use. */
    private static Number asNumber(SqlValue value) {
        if (!value.isNumber()) {
            throw new IllegalStateException("an aggregate's partial value is a " + value.type() + ", not a number");
        }
        return (Number) value.toJava();
    }

    private static SqlValue average(SqlValue sum, long count) {
        if (sum.isNull() || count == 0) {
            return SqlValue.NULL;
        }
        if (sum.type() == SqlValue.Type.FLOAT) {
            return SqlValue.ofDouble(sum.doubleValue() / count);
        }
        BigDecimal total = sum.numericOrZero();
        int scale = Math.min(Math.max(total.scale(), 0) + AVG_EXTRA_SCALE, 30);
        return SqlValue.ofDecimal(total.divide(BigDecimal.valueOf(count), scale, RoundingMode.HALF_UP));
    }

    private static SqlValue pick(ValueComparator comparator, SqlValue current, SqlValue candidate, boolean min) {
        if (candidate.isNull()) {
            return current;
        }
        if (current.isNull()) {
            return candidate;
        }
        int order = comparator.compare(candidate, current);
        return (min ? order < 0 : order > 0) ? candidate : current;
    }
}
