package io.shardgate.router.exec;

import java.util.List;
import java.util.function.Predicate;

import static java.util.Objects.requireNonNull;

/** Passes the rows {@code condition} holds for: HAVING, evaluated after the merge. */
public final class FilterStream implements RowStream {
    private final RowStream input;
    private final Predicate<Row> condition;

    public FilterStream(RowStream input, Predicate<Row> condition) {
        this.input = requireNonNull(input, "input is null");
        this.condition = requireNonNull(condition, "condition is null");
    }

    @Override
    public List<ColumnMeta> columns() {
        return input.columns();
    }

    @Override
    public Row next() {
        for (Row row = input.next(); row != null; row = input.next()) {
            if (condition.test(row)) {
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
