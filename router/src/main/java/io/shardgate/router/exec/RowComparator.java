package io.shardgate.router.exec;

import java.util.Comparator;
import java.util.List;

import static java.util.Objects.requireNonNull;

/** Orders rows by a list of {@link SortKey}s, each column compared by its {@link ValueComparator}. */
public final class RowComparator implements Comparator<Row> {
    private final int[] columns;
    private final boolean[] descending;
    private final ValueComparator[] comparators;

    private RowComparator(int[] columns, boolean[] descending, ValueComparator[] comparators) {
        this.columns = columns;
        this.descending = descending;
        this.comparators = comparators;
    }

    /** The comparator for {@code keys} over a result with these columns; {@code use} names the operator for errors. */
    public static RowComparator of(List<SortKey> keys, List<ColumnMeta> resultColumns, String use) {
        requireNonNull(keys, "keys is null");
        requireNonNull(resultColumns, "resultColumns is null");
        int[] columns = new int[keys.size()];
        boolean[] descending = new boolean[keys.size()];
        ValueComparator[] comparators = new ValueComparator[keys.size()];
        for (int i = 0; i < keys.size(); i++) {
            columns[i] = keys.get(i).column().resolve(resultColumns.size());
            descending[i] = keys.get(i).descending();
            comparators[i] = ValueComparator.forColumn(resultColumns.get(columns[i]), use);
        }
        return new RowComparator(columns, descending, comparators);
    }

    /** Ascending on every one of the first {@code count} columns: equality of those columns for DISTINCT. */
    public static RowComparator allColumns(int count, List<ColumnMeta> resultColumns, String use) {
        return of(java.util.stream.IntStream.range(0, count).mapToObj(i -> new SortKey(ColumnRef.at(i), false)).toList(),
                resultColumns, use);
    }

    @Override
    public int compare(Row a, Row b) {
        for (int i = 0; i < columns.length; i++) {
            int order = comparators[i].compare(a.get(columns[i]), b.get(columns[i]));
            if (order != 0) {
                return descending[i] ? -order : order;
            }
        }
        return 0;
    }
}
