package io.shardgate.router.exec;

import java.util.List;

/** Helpers for streams over rows. */
public final class Streams {
    private Streams() {
    }

    /** Closes every stream, even when one throws; rethrows the first failure. */
    public static void closeAll(List<? extends RowStream> streams) {
        RuntimeException failure = null;
        for (RowStream stream : streams) {
            try {
                stream.close();
            }
            catch (RuntimeException e) {
                if (failure == null) {
                    failure = e;
                }
                else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    /** A stream of fixed rows: EXPLAIN output, and tests. */
    public static RowStream of(List<ColumnMeta> columns, List<Row> rows) {
        return new StaticStream(columns, rows, Completion.NONE);
    }

    /** A stream without columns or rows that completes with {@code completion}: a write's result. */
    public static RowStream completed(Completion completion) {
        return new StaticStream(List.of(), List.of(), completion);
    }

    private static final class StaticStream implements RowStream {
        private final List<ColumnMeta> columns;
        private final List<Row> rows;
        private final Completion completion;
        private int next;

        StaticStream(List<ColumnMeta> columns, List<Row> rows, Completion completion) {
            this.columns = List.copyOf(columns);
            this.rows = List.copyOf(rows);
            this.completion = completion;
        }

        @Override
        public List<ColumnMeta> columns() {
            return columns;
        }

        @Override
        public Row next() {
            return next < rows.size() ? rows.get(next++) : null;
        }

        @Override
        public Completion completion() {
            return completion;
        }

        @Override
        public void close() {
            next = rows.size();
        }
    }
}
