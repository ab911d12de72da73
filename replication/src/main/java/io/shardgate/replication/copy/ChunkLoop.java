package io.shardgate.replication.copy;

import io.shardgate.replication.gtid.SnapshotPoint;

import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;

/**
 * One table's copy within a {@link TableCopy}: snapshots, catch-ups and chunks until the table is
 * done, the copy is cancelled, or an error ends it. The next chunk is read while the last one is
 * being written; each lane (one connection to a target) writes its slices of the chunks in order.
 * At most {@link #IN_FLIGHT} chunks are being written; a chunk's checkpoint is handed on, in key
 * order, once every target committed it and every chunk before it.
 */
final class ChunkLoop {
    /**
     * Chunks handed to the write lanes and not yet checkpointed, at most; the next one is read meanwhile. One, so that a
     * copy resumed after its runner died re-copies at most one chunk (the rows written after the last checkpoint).
     */
    static final int IN_FLIGHT = 1;
    private final TableCopy copy;
    private final TableShape shape;
    /** Per target, its connections; the first one also deletes. */
    private final List<List<TargetWriter>> writers;
    private final ExecutorService pool;
    private final String name;
    private final ChunkSizer sizer;
    private SnapshotPoint position;
    private long rowsCopied;
    private long rowsTotal;
    /** Per lane, its last write: the lane's next write starts after it. */
    private final Map<TargetWriter, CompletableFuture<Void>> laneTails = new IdentityHashMap<>();
    /** When the last chunk was checkpointed; the sizer measures the time between checkpoints. */
    private long lastFinishedNanos = -1;

    /** A chunk being written. */
    private record Pending(List<Future<?>> writes, int rows, List<PkValue> lastKey, long startedNanos) {
    }

    ChunkLoop(TableCopy copy, TableShape shape, List<List<TargetWriter>> writers, ExecutorService pool,
              SnapshotPoint position) {
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
    SnapshotPoint run() throws SQLException, ExecutionException, InterruptedException {
        CopyCheckpoint state = copy.latest(name);
        if (state.done()) {
            return position;
        }
        rowsCopied = state.rowsCopied();
        rowsTotal = state.rowsTotal();
        long deleted = 0;
        for (List<TargetWriter> lanes : writers) {
            deleted += lanes.get(0).deleteAfter(shape, state.lastPk());
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
                    copy.board().table(new CopyCheckpoint(name, lastKey, state.position(), rowsCopied, rowsTotal, false,
                            state.lookback()));
                }
                SnapshotPoint at = snapshot.position();
                if (position != null && !position.position().equals(at.position())) {
                    copy.board().phase(CopyProgress.Phase.CATCHING_UP);
                    // One worker: the stream applies one schema's transactions in order on one worker anyway.
                    CopyStreams.catchUp(copy.source(), copy.targets(), copy.shapes(), copy.currentScopes(), position, at.position(),
                            1, copy.notices());
                    copy.board().phase(CopyProgress.Phase.COPYING);
                }
                position = at;
                if (copyFrom(snapshot, lastKey)) {
                    CopyCheckpoint last = copy.latest(name);
                    copy.checkpoint(new CopyCheckpoint(name, last.lastPk(), position, rowsCopied,
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
        copy.timings().add("snapshot open to first chunk", snapshot.ageMillis() * 1_000_000);
        List<PkValue> read = lastKey;
        Deque<Pending> pending = new ArrayDeque<>();
        lastFinishedNanos = -1;
        while (true) {
            long started = System.nanoTime();
            List<Object[]> rows = snapshot.chunk(shape, read, sizer.next());
            copy.timings().since("read", started);
            if (rows.isEmpty()) {
                finishAll(pending);
                return true;
            }
            read = shape.keyOf(rows.get(rows.size() - 1));
            while (pending.size() >= IN_FLIGHT) {
                finish(pending.removeFirst()); // checkpointed before the next chunk is written: a resume re-copies at most one
            }
            pending.addLast(write(rows, read, started));
            if (copy.cancelled() || snapshot.ageMillis() >= copy.settings().snapshotTime().toMillis()
                    || copy.throttledNow()) {
                finishAll(pending);
                return false;
            }
        }
    }

    private void finishAll(Deque<Pending> pending) throws ExecutionException, InterruptedException {
        while (!pending.isEmpty()) {
            finish(pending.removeFirst());
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
                    if (writers.get(t).get(0).target().range().contains(keyspaceId)) {
                        parts.get(t).add(row);
                        break;
                    }
                }
            }
        }
        List<Future<?>> writes = new ArrayList<>(writers.size());
        for (int t = 0; t < writers.size(); t++) {
            List<TargetWriter> lanes = writers.get(t);
            List<Object[]> part = parts.get(t);
            int slice = (part.size() + lanes.size() - 1) / lanes.size();
            for (int lane = 0; lane < lanes.size() && lane * slice < part.size(); lane++) {
                TargetWriter writer = lanes.get(lane);
                List<Object[]> rowsOfLane = part.subList(lane * slice, Math.min(part.size(), (lane + 1) * slice));
                CompletableFuture<Void> next = laneTails.getOrDefault(writer, CompletableFuture.completedFuture(null))
                        .thenRunAsync(() -> writeLane(writer, rowsOfLane), pool);
                laneTails.put(writer, next);
                writes.add(next);
            }
        }
        return new Pending(writes, rows.size(), lastKey, started);
    }

    private void writeLane(TargetWriter writer, List<Object[]> rows) {
        long writing = System.nanoTime();
        try {
            writer.write(shape, rows);
        } catch (SQLException e) {
            throw new CompletionException(e);
        }
        copy.timings().since("write " + writer.target().name(), writing);
    }

    private void finish(Pending pending) throws ExecutionException, InterruptedException {
        long waiting = System.nanoTime();
        try {
            TableCopy.await(pending.writes());
            copy.timings().since("wait for writes", waiting);
        } catch (ExecutionException e) {
            throw new CopyException(name + ": writing a chunk failed: " + e.getCause().getMessage(), e.getCause());
        }
        rowsCopied += pending.rows();
        copy.board().copied(pending.rows());
        copy.checkpoint(new CopyCheckpoint(name, pending.lastKey(), position, rowsCopied,
                Math.max(rowsTotal, rowsCopied), false));
        // Chunks overlap: a chunk's time is the time since the last checkpoint (the copy's pace), or since its read began.
        long now = System.nanoTime();
        sizer.observe(pending.rows(), Duration.ofNanos(now - Math.max(lastFinishedNanos, pending.startedNanos())));
        lastFinishedNanos = now;
    }
}
