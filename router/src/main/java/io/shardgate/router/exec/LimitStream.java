package io.shardgate.router.exec;

import java.util.List;

import static java.util.Objects.requireNonNull;

/** Skips {@code offset} rows, then passes at most {@code count}; stops reading its input after that. */
public final class LimitStream implements RowStream {
    private final RowStream input;
    private long toSkip;
    private long remaining;

    public LimitStream(RowStream input, long offset, long count) {
        this.input = requireNonNull(input, "input is null");
        if (offset < 0 || count < 0) {
            throw new IllegalArgumentException("offset " + offset + " and count " + count + " must not be negative");
        }
        this.toSkip = offset;
        this.remaining = count;
    }

    @Override
    public List<ColumnMeta> columns() {
        return input.columns();
    }

    @Override
    public Row next() {
        while (toSkip > 0) {
            if (input.next() == null) {
                toSkip = 0;
                remaining = 0;
                return null;
            }
            toSkip--;
        }
        if (remaining == 0) {
            return null;
        }
        Row row = input.next();
        remaining = row == null ? 0 : remaining - 1;
        return row;
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
