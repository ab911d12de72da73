package io.shardgate.router.plan;

import io.shardgate.router.exec.ColumnMeta;
import io.shardgate.router.exec.Completion;
import io.shardgate.router.exec.Row;
import io.shardgate.router.exec.RowStream;
import io.shardgate.router.exec.Streams;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * A batched {@link CopyJoin}: the copied table's rows are read a batch at a time, and for each batch
 * the statement runs with that batch as the copy; its rows are the rows of every run, one after the
 * other. At least one run, so that an empty copy still gives the statement's columns. Holds one batch
 * of copied rows at a time.
 */
final class CopyBatchStream implements RowStream {
    private final RowStream copied;
    private final int batchRows;
    private final Function<List<Row>, RowStream> run;
    private RowStream current;
    private boolean copiedEnded;
    private Completion completion = Completion.NONE;

    /** {@code run}: starts the statement with a batch as its copy. */
    CopyBatchStream(RowStream copied, int batchRows, Function<List<Row>, RowStream> run) {
        this.copied = copied;
        this.batchRows = batchRows;
        this.run = run;
        try {
            current = run.apply(nextBatch());
        } catch (RuntimeException e) {
            copied.close();
            throw e;
        }
    }

    private List<Row> nextBatch() {
        List<Row> batch = new ArrayList<>(Math.min(batchRows, 1024));
        while (batch.size() < batchRows) {
            Row row = copied.next();
            if (row == null) {
                // Its shard connections go back now, before the statement runs (inside a transaction, on the same ones).
                copiedEnded = true;
                copied.close();
                break;
            }
            batch.add(row);
        }
        return batch;
    }

    @Override
    public List<ColumnMeta> columns() {
        return current.columns();
    }

    @Override
    public Row next() {
        while (true) {
            Row row = current.next();
            if (row != null) {
                return row;
            }
            completion = completion.plus(current.completion());
            if (copiedEnded) {
                return null;
            }
            List<Row> batch = nextBatch();
            if (batch.isEmpty()) {
                return null;
            }
            current.close();
            current = run.apply(batch);
        }
    }

    @Override
    public Completion completion() {
        return completion;
    }

    @Override
    public void close() {
        Streams.closeAll(List.of(current, copied));
    }
}
