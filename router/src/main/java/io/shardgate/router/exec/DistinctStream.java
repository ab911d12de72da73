package io.shardgate.router.exec;

import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * DISTINCT over an input sorted on every column: drops rows equal (NULLs equal, strings under their
 * collation) to the row before. Holds one row.
 */
public final class DistinctStream implements RowStream {
    private final RowStream input;
    private RowComparator equality;
    private Row previous;

    public DistinctStream(RowStream input) {
        this.input = requireNonNull(input, "input is null");
    }

    @Override
    public List<ColumnMeta> columns() {
        return input.columns();
    }

    @Override
    public Row next() {
        if (equality == null) {
            equality = RowComparator.allColumns(columns().size(), columns(), "DISTINCT");
        }
        for (Row row = input.next(); row != null; row = input.next()) {
            if (previous == null || equality.compare(previous, row) != 0) {
                previous = row;
                return row;
            }
        }
        return null;
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
