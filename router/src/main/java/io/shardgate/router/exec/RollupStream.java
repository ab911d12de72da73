package io.shardgate.router.exec;

import io.shardgate.router.value.SqlValue;

import java.util.ArrayDeque;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * {@code GROUP BY k1, ..., kn WITH ROLLUP} merged from shards that grouped by k1..kn without ROLLUP, their
 * rows sorted by the keys ({@link MergeSortStream}). One accumulator per level (the first L keys, L = n down
 * to 0) takes every row; when a key changes, the levels below it end: the full group's row first, then each
 * super-aggregate row with the keys past its level set to NULL, and the grand total last, in MariaDB's
 * order. Memory: n + 1 groups. No input rows, no output rows.
 */
public final class RollupStream implements RowStream {
    private final RowStream input;
    private final List<SortKey> groupKeys;
    private final List<Aggregate> aggregates;
    private final ArrayDeque<Row> ready = new ArrayDeque<>();
    private Accumulator[] levels;
    private RowComparator[] keyComparators;
    private int[] keyColumns;
    private Row previous;
    private boolean exhausted;

    public RollupStream(RowStream input, List<SortKey> groupKeys, List<Aggregate> aggregates) {
        this.input = requireNonNull(input, "input is null");
        this.groupKeys = List.copyOf(requireNonNull(groupKeys, "groupKeys is null"));
        this.aggregates = List.copyOf(requireNonNull(aggregates, "aggregates is null"));
        if (this.groupKeys.isEmpty()) {
            throw new IllegalArgumentException("no group keys");
        }
        if (this.aggregates.stream().anyMatch(a -> a.distinct().isPresent())) {
            throw new IllegalArgumentException("a DISTINCT aggregate needs its values sorted within a group, not within a rollup level");
        }
    }

    private void init() {
        if (levels != null) {
            return;
        }
        List<ColumnMeta> columns = input.columns();
        int n = groupKeys.size();
        levels = new Accumulator[n + 1];
        for (int level = 0; level <= n; level++) {
            levels[level] = new Accumulator(aggregates, columns);
        }
        keyComparators = new RowComparator[n];
        keyColumns = new int[n];
        for (int k = 0; k < n; k++) {
            keyComparators[k] = RowComparator.of(List.of(groupKeys.get(k)), columns, "GROUP BY ... WITH ROLLUP");
            keyColumns[k] = groupKeys.get(k).column().resolve(columns.size());
        }
    }

    @Override
    public List<ColumnMeta> columns() {
        init();
        // MariaDB keeps a NOT NULL group key's flag on its ROLLUP rows too (measured: BIGINT NOT NULL), so the metadata stays.
        return levels[0].resultColumns();
    }

    @Override
    public Row next() {
        init();
        while (ready.isEmpty() && !exhausted) {
            Row row = input.next();
            if (row == null) {
                exhausted = true;
                if (previous != null) {
                    close(0);
                }
                break;
            }
            if (previous != null) {
                int differs = firstDifference(previous, row);
                if (differs < keyColumns.length) {
                    close(differs + 1);
                }
            }
            for (Accumulator level : levels) {
                level.add(row);
            }
            previous = row;
        }
        return ready.poll();
    }

    private int firstDifference(Row a, Row b) {
        for (int k = 0; k < keyComparators.length; k++) {
            if (keyComparators[k].compare(a, b) != 0) {
                return k;
            }
        }
        return keyComparators.length;
    }

    /** Ends the levels from the full group down to {@code lowest}: their rows, finest first. */
    private void close(int lowest) {
        for (int level = keyColumns.length; level >= lowest; level--) {
            Row merged = levels[level].finish();
            if (level == keyColumns.length) {
                ready.add(merged);
                continue;
            }
            SqlValue[] values = new SqlValue[merged.size()];
            for (int c = 0; c < values.length; c++) {
                values[c] = merged.get(c);
            }
            for (int k = level; k < keyColumns.length; k++) {
                values[keyColumns[k]] = SqlValue.NULL;
            }
            ready.add(Row.wrap(values));
        }
    }

    @Override
    public Completion completion() {
        return input.completion();
    }

    @Override
    public void close() {
        input.close();
    }
}
