package io.shardgate.router.exec;

import io.shardgate.errors.ErrorCode;

import java.util.ArrayList;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * Sorts its whole input in memory: for an ORDER BY the shards cannot do, such as one on an
 * aggregate after GROUP BY merging. Fails with {@link ErrorCode#BUFFER_LIMIT} rather than hold
 * more than {@code maxRows} rows. The sort is stable.
 */
public final class MemorySortStream implements RowStream {
    private final RowStream input;
    private final List<SortKey> keys;
    private final long maxRows;
    private List<Row> sorted;
    private int next;

    public MemorySortStream(RowStream input, List<SortKey> keys, long maxRows) {
        this.input = requireNonNull(input, "input is null");
        this.keys = List.copyOf(requireNonNull(keys, "keys is null"));
        if (maxRows < 1) {
            throw new IllegalArgumentException("maxRows " + maxRows + " must be positive");
        }
        this.maxRows = maxRows;
    }

    @Override
    public List<ColumnMeta> columns() {
        return input.columns();
    }

    @Override
    public Row next() {
        if (sorted == null) {
            RowComparator comparator = RowComparator.of(keys, columns(), "ORDER BY");
            List<Row> rows = new ArrayList<>();
            for (Row row = input.next(); row != null; row = input.next()) {
                if (rows.size() >= maxRows) {
                    throw ErrorCode.BUFFER_LIMIT.exception(maxRows, "an in-memory sort");
                }
                rows.add(row);
            }
            rows.sort(comparator);
            sorted = rows;
        }
        return next < sorted.size() ? sorted.get(next++) : null;
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
