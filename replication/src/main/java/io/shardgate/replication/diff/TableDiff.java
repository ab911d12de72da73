package io.shardgate.replication.diff;

import io.shardgate.storage.checksum.PkRange;
import io.shardgate.storage.checksum.TableChecksum;
import io.shardgate.storage.checksum.TableName;

import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;

import static java.util.Objects.requireNonNull;

/**
 * Compares one table on a source server with the union of its targets (a reshard splits a shard's rows
 * over N new shards; a table move has one target), chunk by chunk in primary-key order, and resumably.
 *
 * <p>Each chunk's upper bound is found on the source by a keyed index walk ({@code WHERE pk >= lower
 * ORDER BY pk LIMIT 1 OFFSET n}), or computed for a single integer key ({@link ChunkBounds}); its size
 * adapts to {@link DiffOptions#chunkTime} ({@link ChunkSizer}).
 * The chunk is checksummed on every server at once, through each engine's checksum primitive, and the
 * targets' results combined; a differing chunk is narrowed to its rows ({@link RangeComparer}). Targets
 * given an ownership predicate also have each of their rows checked against it ({@link OwnershipCheck}).
 *
 * <p>All servers are read in matched snapshots ({@link DiffPoints}) that are reopened once older than
 * {@link DiffOptions#snapshotHold}, so no snapshot lives longer than that plus one chunk. After every chunk
 * a {@link DiffCheckpoint} goes to the sink; nothing but that checkpoint is kept between chunks, so memory
 * does not grow with the table.
 */
public final class TableDiff {
    private static final System.Logger LOG = System.getLogger(TableDiff.class.getName());

    private final TableName table;
    private final SnapshotSource snapshots;
    private final List<DiffTarget> targets;
    private final DiffOptions options;
    private final LongSupplier nanoClock;

    TableDiff(TableName table, SnapshotSource snapshots, List<DiffTarget> targets, DiffOptions options,
            LongSupplier nanoClock) {
        this.table = requireNonNull(table, "table is null");
        this.snapshots = requireNonNull(snapshots, "snapshots is null");
        this.targets = List.copyOf(requireNonNull(targets, "targets is null"));
        this.options = requireNonNull(options, "options is null");
        this.nanoClock = requireNonNull(nanoClock, "nanoClock is null");
        if (this.targets.isEmpty()) {
            throw new IllegalArgumentException("a diff needs at least one target");
        }
    }

    /**
     * A diff of {@code table} read through {@code points}, the source with its engine's checksum
     * ({@code StorageAdapter.checksum()}), the targets in the order {@code points} opens them.
     */
    public static TableDiff of(TableName table, DiffPoints points, TableChecksum sourceChecksum, List<DiffTarget> targets,
            DiffOptions options) {
        return new TableDiff(table, new JdbcSnapshots(table, points, sourceChecksum, targets), targets, options,
                System::nanoTime);
    }

    /** Compares the whole table from the start. */
    public DiffCheckpoint run(DiffSink sink) throws SQLException {
        return run(DiffCheckpoint.start(table), sink);
    }

    /** Compares the rows at and above {@code from}'s key, and returns the final checkpoint. */
    public DiffCheckpoint run(DiffCheckpoint from, DiffSink sink) throws SQLException {
        requireNonNull(from, "from is null");
        requireNonNull(sink, "sink is null");
        if (!from.table().equals(table)) {
            throw new IllegalArgumentException("a checkpoint of " + from.table() + " cannot resume a diff of " + table);
        }
        if (from.finished()) {
            return from;
        }
        Reports reports = new Reports(sink, options.maxReported(), from.mismatches());
        ChunkSizer sizer = new ChunkSizer(options);
        ExecutorService executor = Executors.newCachedThreadPool(daemonThreads(table)); // a thread per server lane
        Parallel parallel = new Parallel(executor);
        OwnershipCheck ownership = new OwnershipCheck(targets, parallel, reports);
        List<String> shards = targets.stream().map(DiffTarget::shard).toList();
        DiffTimes times = new DiffTimes(targets.size() + 1, System::nanoTime); // not the pacing clock: logging only
        DiffCheckpoint at = from;
        Snapshot snapshot = null;
        ChunkBounds bounds = null;
        long openedAt = 0;
        try {
            while (!at.finished()) {
                if (snapshot == null || nanoClock.getAsLong() - openedAt >= options.snapshotHold().toNanos()) {
                    if (snapshot != null) {
                        Snapshot old = snapshot;
                        snapshot = null;
                        old.close();
                    }
                    long opening = times.now();
                    snapshot = snapshots.open();
                    times.opened(opening);
                    openedAt = snapshot.openedNanos().orElse(nanoClock.getAsLong());
                    if (bounds == null) {
                        bounds = ChunkBounds.forKey(snapshot.keyOrder());
                    }
                    bounds.reopened();
                }
                long started = nanoClock.getAsLong();
                long timed = times.now();
                long planned = sizer.rows();
                long[] busy = times.busy();
                Optional<List<Object>> upper = bounds.upper(snapshot, at.comparedBelow(), planned);
                times.bounded(timed);
                PkRange chunk = new PkRange(at.comparedBelow(), upper.orElse(List.of()));
                long rows = new RangeComparer(snapshot, parallel, shards, options.narrowRows(), reports, times).compare(chunk);
                if (ownership.enabled()) {
                    ownership.check(snapshot, chunk);
                }
                long rowsInChunk = rows;
                long chunkStarted = timed;
                LOG.log(System.Logger.Level.DEBUG, () -> "diff of " + table + ": " + times.chunkLine(rowsInChunk, chunkStarted, busy));
                times.chunk(rows, timed);
                bounds.observe(rows);
                sizer.observe(planned, rows, nanoClock.getAsLong() - started);
                at = next(at, upper, rows, reports.count(), snapshot.estimatedRows(), sizer.rows());
                sink.checkpoint(at);
            }
            return at;
        } catch (SQLException | RuntimeException e) {
            closeQuietly(snapshot, e);
            snapshot = null;
            throw e;
        } finally {
            LOG.log(System.Logger.Level.INFO, () -> "diff of " + table + ": " + times.summary(servers(shards)));
            executor.shutdownNow();
            if (snapshot != null) {
                snapshot.close();
            }
        }
    }

    /** The checkpoint after a chunk that ended below {@code upper} (the end of the table when empty). */
    static DiffCheckpoint next(DiffCheckpoint at, Optional<List<Object>> upper, long rows, long mismatches,
            long estimatedRows, long chunkRows) {
        long done = at.chunksDone() + 1;
        long compared = at.rowsCompared() + rows;
        long left = Math.max(0, estimatedRows - compared);
        long total = upper.isEmpty() ? done : done + Math.max(1, (left + chunkRows - 1) / chunkRows);
        return new DiffCheckpoint(at.table(), upper.orElse(at.comparedBelow()), upper.isEmpty(), done, total, compared,
                mismatches);
    }

    private static List<String> servers(List<String> shards) {
        List<String> servers = new java.util.ArrayList<>();
        servers.add("source");
        servers.addAll(shards);
        return servers;
    }

    private static void closeQuietly(Snapshot snapshot, Exception failure) {
        if (snapshot != null) {
            try {
                snapshot.close();
            } catch (SQLException | RuntimeException e) {
                failure.addSuppressed(e);
            }
        }
    }

    private static java.util.concurrent.ThreadFactory daemonThreads(TableName table) {
        AtomicInteger count = new AtomicInteger();
        return runnable -> {
            Thread thread = new Thread(runnable, "diff-" + table + "-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }
}
