package io.shardgate.router.exec;

import io.shardgate.router.value.SqlValue;

import java.util.List;

import static java.util.Objects.requireNonNull;

/** Drops the last {@code count} columns: the helper columns the planner added for merging. */
public final class DropColumnsStream implements RowStream {
    private final RowStream input;
    private final int count;

    public DropColumnsStream(RowStream input, int count) {
        this.input = requireNonNull(input, "input is null");
        if (count < 1) {
            throw new IllegalArgumentException("count " + count + " must be positive");
        }
        this.count = count;
    }

    @Override
    public List<ColumnMeta> columns() {
        List<ColumnMeta> columns = input.columns();
        return columns.subList(0, columns.size() - count);
    }

    @Override
    public Row next() {
        Row row = input.next();
        if (row == null) {
            return null;
        }
        SqlValue[] values = new SqlValue[row.size() - count];
        for (int i = 0; i < values.length; i++) {
            values[i] = row.get(i);
        }
        return new ArrayRow(values);
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
