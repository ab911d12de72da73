package io.shardgate.replication.copy;

import io.shardgate.replication.gtid.MariaDbGtidPosition;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;

/**
 * One table's copy within a {@link TableCopy}: snapshots, catch-ups and chunks until the table is
 * done, the copy is cancelled, or an error ends it. The next chunk is read while the last one is
 * being written; its checkpoint is handed on once every target committed it.
 */
final class ChunkLoop {
    private final TableCopy copy;
    private final TableShape shape;
    private final List<TargetWriter> writers;
    private final ExecutorService pool;
    private final String name;
    private final ChunkSizer sizer;
    private MariaDbGtidPosition position;
    private long rowsCopied;
    private long rowsTotal;

    /** A chunk being written. */
    private record Pending(List<Future<?>> writes, int rows, List<PkValue> lastKey, long startedNanos) {
    }

    ChunkLoop(TableCopy copy, TableShape shape, List<TargetWriter> writers, ExecutorService pool,
              MariaDbGtidPosition position) {
        this.copy = copy;
        this.shape = shape;
        this.writers = writers;
        this.pool = pool;
        this.name = shape.table().qualifiedName();
        this.position = position;
        int cap = copy.chunkCap();
        this.sizer = new ChunkSizer(copy.settings().chunkTime(), Math.min(copy.settings().initialChunk(), cap),
                Math.min(100, cap), cap);
    }

    /** Copies the table; returns the position at which every copied row is current. */
    MariaDbGtidPosition run() throws SQLException, ExecutionException, InterruptedException {
        CopyCheckpoint state = copy.latest(name);
        if (state.done()) {
            return position;
        }
        rowsCopied = state.rowsCopied();
        rowsTotal = state.rowsTotal();
        long deleted = 0;
        for (TargetWriter writer : writers) {
            deleted += writer.deleteAfter(shape, state.lastPk());
        }
        if (deleted > 0) {
            copy.notices().accept(name + ": deleted " + deleted + " rows after the last checkpoint, written by a chunk"
                    + " whose checkpoint was lost; copying them again");
        }
        List<PkValue> lastKey = state.lastPk();
        while (!copy.cancelled() && copy.awaitThrottle()) {
            try (SourceSnapshot snapshot = SourceSnapshot.open(copy.source())) {
                if (rowsTotal == 0) {
                    rowsTotal = snapshot.estimateRows(shape.table());
                    copy.board().table(new CopyCheckpoint(name, lastKey, state.position(), rowsCopied, rowsTotal, false));
                }
                MariaDbGtidPosition at = snapshot.position();
                if (position != null && !position.equals(at)) {
                    copy.board().phase(CopyProgress.Phase.CATCHING_UP);
                    CopyStreams.catchUp(copy.source(), copy.targets(), copy.shapes(), copy.currentScopes(), position, at,
                            copy.settings().streamWorkers(), copy.notices());
                    copy.board().phase(CopyProgress.Phase.COPYING);
                }
                position = at;
                if (copyFrom(snapshot, lastKey)) {
                    CopyCheckpoint last = copy.latest(name);
                    copy.checkpoint(new CopyCheckpoint(name, last.lastPk(), position.toString(), rowsCopied,
                            Math.max(rowsTotal, rowsCopied), true));
                    return position;
                }
                lastKey = copy.latest(name).lastPk();
            }
        }
        return position;
    }

    /** Copies chunks from {@code snapshot} after {@code lastKey}; true when the table is done. */
    private boolean copyFrom(SourceSnapshot snapshot, List<PkValue> lastKey)
            throws SQLException, ExecutionException, InterruptedException {
        List<PkValue> read = lastKey;
        Pending pending = null;
        while (true) {
            long started = System.nanoTime();
            List<Object[]> rows = snapshot.chunk(shape, read, sizer.next());
            if (pending != null) {
                finish(pending);
            }
            if (rows.isEmpty()) {
                return true;
            }
            read = shape.keyOf(rows.get(rows.size() - 1));
            pending = write(rows, read, started);
            if (copy.cancelled() || snapshot.ageMillis() >= copy.settings().snapshotTime().toMillis()
                    || copy.throttledNow()) {
                finish(pending);
                return false;
            }
        }
    }

    private Pending write(List<Object[]> rows, List<PkValue> lastKey, long started) {
        List<List<Object[]>> parts = new ArrayList<>(writers.size());
        if (shape.shardKey() < 0) {
            writers.forEach(writer -> parts.add(rows));
        } else {
            writers.forEach(writer -> parts.add(new ArrayList<>(rows.size() / writers.size() + 16)));
            for (Object[] row : rows) {
                long keyspaceId = shape.table().vindex().keyspaceId(shape.shardKeyOf(row));
                for (int t = 0; t < writers.size(); t++) {
                    if (writers.get(t).target().range().contains(keyspaceId)) {
                        parts.get(t).add(row);
                        break;
                    }
                }
            }
        }
        List<Future<?>> writes = new ArrayList<>(writers.size());
        for (int t = 0; t < writers.size(); t++) {
            TargetWriter writer = writers.get(t);
            List<Object[]> part = parts.get(t);
            if (!part.isEmpty()) {
                writes.add(pool.submit(() -> {
                    writer.write(shape, part);
                    return null;
                }));
            }
        }
        return new Pending(writes, rows.size(), lastKey, started);
    }

    private void finish(Pending pending) throws ExecutionException, InterruptedException {
        try {
            TableCopy.await(pending.writes());
        } catch (ExecutionException e) {
            throw new CopyException(name + ": writing a chunk failed: " + e.getCause().getMessage(), e.getCause());
        }
        rowsCopied += pending.rows();
        copy.board().copied(pending.rows());
        copy.checkpoint(new CopyCheckpoint(name, pending.lastKey(), position.toString(), rowsCopied,
                Math.max(rowsTotal, rowsCopied), false));
        sizer.observe(pending.rows(), TableCopy.since(pending.startedNanos()));
    }
}
