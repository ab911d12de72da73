package io.shardgate.router.exec;

import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * Aggregates without GROUP BY: reads every shard's single row and returns one merged row
 * ({@code COUNT} adds, {@code MIN}/{@code MAX} pick, AVG divides the summed SUM by the summed COUNT).
 */
public final class AggregateStream implements RowStream {
    private final RowStream input;
    private final List<Aggregate> aggregates;
    private Accumulator accumulator;
    private boolean done;

    public AggregateStream(RowStream input, List<Aggregate> aggregates) {
        this.input = requireNonNull(input, "input is null");
        this.aggregates = List.copyOf(requireNonNull(aggregates, "aggregates is null"));
    }

    private Accumulator accumulator() {
        if (accumulator == null) {
            accumulator = new Accumulator(aggregates, input.columns());
        }
        return accumulator;
    }

    @Override
    public List<ColumnMeta> columns() {
        return accumulator().resultColumns();
    }

    @Override
    public Row next() {
        if (done) {
            return null;
        }
        Accumulator merged = accumulator();
        for (Row row = input.next(); row != null; row = input.next()) {
            merged.add(row);
        }
        done = true;
        return merged.finish();
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
