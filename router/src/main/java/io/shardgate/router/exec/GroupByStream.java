package io.shardgate.router.exec;

import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * GROUP BY merging over an input sorted by the group keys (a {@link MergeSortStream} of shards each
 * sorted the same way): rows with equal keys are consecutive, so one group is held at a time.
 */
public final class GroupByStream implements RowStream {
    private final RowStream input;
    private final List<SortKey> groupKeys;
    private final List<Aggregate> aggregates;
    private Accumulator accumulator;
    private RowComparator sameGroup;
    private Row pending;
    private boolean exhausted;

    public GroupByStream(RowStream input, List<SortKey> groupKeys, List<Aggregate> aggregates) {
        this.input = requireNonNull(input, "input is null");
        this.groupKeys = List.copyOf(requireNonNull(groupKeys, "groupKeys is null"));
        this.aggregates = List.copyOf(requireNonNull(aggregates, "aggregates is null"));
        if (this.groupKeys.isEmpty()) {
            throw new IllegalArgumentException("no group keys; use AggregateStream");
        }
    }

    private Accumulator accumulator() {
        if (accumulator == null) {
            accumulator = new Accumulator(aggregates, input.columns());
            sameGroup = RowComparator.of(groupKeys, input.columns(), "GROUP BY");
        }
        return accumulator;
    }

    @Override
    public List<ColumnMeta> columns() {
        return accumulator().resultColumns();
    }

    @Override
    public Row next() {
        Accumulator group = accumulator();
        if (pending == null && !exhausted) {
            pending = input.next();
        }
        if (pending == null) {
            exhausted = true;
            return null;
        }
        Row first = pending;
        group.add(first);
        while (true) {
            Row row = input.next();
            if (row == null) {
                exhausted = true;
                pending = null;
                break;
            }
            if (sameGroup.compare(first, row) != 0) {
                pending = row;
                break;
            }
            group.add(row);
        }
        return group.finish();
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
