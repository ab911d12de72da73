package io.shardgate.replication.copy;

import io.shardgate.replication.gtid.MariaDbGtidPosition;
import io.shardgate.replication.gtid.SnapshotPoint;
import io.shardgate.replication.stream.ServerEndpoint;
import io.shardgate.storage.StorageAdapters;
import io.shardgate.storage.capability.EngineCapabilities;

import java.sql.SQLException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;

import static java.util.Objects.requireNonNull;

/**
 * Copies tables from a source primary to targets that each own a key range, online, with Vitess'
 * algorithm; a library for the reshard and move jobs (no job store, no HTTP).
 *
 * <pre>{@code
 * TableCopy copy = new TableCopy(source, tables, targets, CopySettings.defaults(), throttle, checkpoints::save,
 *         adapters, notices);
 * copy.createSchema(false);
 * SnapshotPoint copied = copy.run(List.of());           // or the saved checkpoints, to resume
 * CopyStreams streams = copy.startStreaming(copied);     // until the cutover stops them
 * }</pre>
 *
 * <p>Per table, in primary-key order: open a consistent snapshot on the source and read its GTID
 * position P'; catch every target up from the position P at which all copied rows are current to P'
 * (a change stream per target, {@link CatchUpScope}: rows of finished tables, and of this table
 * those at or below the last copied key, in the target's key range); then copy chunks
 * {@code pk > lastPk ORDER BY pk LIMIT n} from the snapshot, each to the targets that own its rows
 * (one transaction per chunk per target), checkpointing {@code (lastPk, P')} after each. One
 * snapshot serves chunks for up to {@link CopySettings#snapshotTime()} (Vitess keeps one for its copy
 * phase too): every row it shows is current at P', so no catch-up is due between its chunks, and the
 * catch-ups, which start a binlog reader each, stay few. The next chunk is read while the last one is
 * written. Between chunks a {@link Throttle} may hold the copy, with the snapshot closed.
 *
 * <p>Resuming from checkpoints re-copies at most one chunk per table: rows after the checkpoint's
 * last key (written by a chunk whose checkpoint was lost) are deleted from the targets first, so the
 * copy goes on with plain INSERTs that fail rather than duplicate. A row whose shard key no target's
 * range owns is not the moving range's and is left out.
 */
public final class TableCopy {
    private final ServerEndpoint source;
    private final List<CopyTable> tables;
    private final List<CopyTarget> targets;
    private final CopySettings settings;
    private final Throttle throttle;
    private final Consumer<CopyCheckpoint> checkpoints;
    private final StorageAdapters adapters;
    private final Consumer<String> notices;
    private final ProgressBoard board;
    private final CopyTimings timings = new CopyTimings();
    private final Map<String, TableShape> shapes = new LinkedHashMap<>();
    private final Map<String, CopyCheckpoint> latest = new LinkedHashMap<>();
    private int chunkCap = Integer.MAX_VALUE;
    private long throttleAskedNanos;
    private boolean throttledAnswer;
    private volatile boolean cancelled;

    public TableCopy(ServerEndpoint source, List<CopyTable> tables, List<CopyTarget> targets, CopySettings settings,
                     Throttle throttle, Consumer<CopyCheckpoint> checkpoints, StorageAdapters adapters,
                     Consumer<String> notices) {
        this.source = requireNonNull(source, "source is null");
        this.tables = List.copyOf(requireNonNull(tables, "tables is null"));
        this.targets = List.copyOf(requireNonNull(targets, "targets is null"));
        this.settings = requireNonNull(settings, "settings is null");
        this.throttle = requireNonNull(throttle, "throttle is null");
        this.checkpoints = requireNonNull(checkpoints, "checkpoints is null");
        this.adapters = requireNonNull(adapters, "adapters is null");
        this.notices = requireNonNull(notices, "notices is null");
        this.board = new ProgressBoard(Clock.systemUTC(), timings);
        if (this.tables.isEmpty() || this.targets.isEmpty()) {
            throw new IllegalArgumentException("a copy needs at least one table and one target");
        }
    }

    /** Progress, from any thread. */
    public CopyProgress progress() {
        return board.snapshot();
    }

    /** Ends {@link #run} after the chunk in flight (its checkpoint is handed on). */
    public void cancel() {
        cancelled = true;
    }

    /**
     * Reads each table's shape from the source (refusing tables the copy cannot move, such as one
     * without a primary key), then creates the database and the empty tables on every target, the DDL
     * checked for the target's engine.
     *
     * @param resuming tables already on a target keep their rows (the copy resumes from checkpoints)
     */
    public void createSchema(boolean resuming) {
        readShapes();
        for (CopyTarget target : targets) {
            EngineCapabilities capabilities = new TargetSchema(adapters).create(source, target, tables, resuming);
            chunkCap = Math.min(chunkCap, ChunkSizer.capFor(capabilities.transactions().rowLockLimit(), settings.maxChunk()));
        }
    }

    private void readShapes() {
        if (!shapes.isEmpty()) {
            return;
        }
        try (var connection = source.connect()) {
            for (CopyTable table : tables) {
                shapes.put(table.qualifiedName(), TableShape.read(connection, table));
            }
        } catch (SQLException e) {
            throw new CopyException("cannot read the tables from source " + source.address() + ": " + e.getMessage(), e);
        }
    }

    /**
     * Copies every table not done in {@code resumeFrom} (the last checkpoint of each table, as the sink got them;
     * empty for a new copy); returns the source position at which the targets hold every row, where the streams
     * start. {@link #createSchema} must have run.
     */
    public SnapshotPoint run(List<CopyCheckpoint> resumeFrom) throws InterruptedException {
        if (shapes.isEmpty()) {
            throw new IllegalStateException("createSchema first");
        }
        SnapshotPoint position = resume(resumeFrom);
        ExecutorService writers = Executors.newFixedThreadPool(targets.size() * settings.writersPerTarget(), runnable -> {
            Thread thread = new Thread(runnable, "copy-writer");
            thread.setDaemon(true);
            return thread;
        });
        List<List<TargetWriter>> connections = new ArrayList<>();
        try {
            for (CopyTarget target : targets) {
                List<TargetWriter> lanes = new ArrayList<>();
                connections.add(lanes);
                for (int i = 0; i < settings.writersPerTarget(); i++) {
                    lanes.add(new TargetWriter(target));
                }
            }
            board.phase(CopyProgress.Phase.COPYING);
            for (CopyTable table : tables) {
                if (cancelled) {
                    break;
                }
                position = new ChunkLoop(this, shapes.get(table.qualifiedName()), connections, writers, position).run();
            }
            board.phase(cancelled ? CopyProgress.Phase.STOPPED : CopyProgress.Phase.CATCHING_UP);
            return position;
        } catch (RuntimeException | SQLException | ExecutionException e) {
            String message = e instanceof ExecutionException ? String.valueOf(e.getCause().getMessage()) : e.getMessage();
            board.failed(message);
            throw e instanceof CopyException copy ? copy : new CopyException("the copy failed: " + message, e);
        } finally {
            writers.shutdownNow();
            connections.forEach(lanes -> lanes.forEach(TargetWriter::close));
            notices.accept("copy timings: " + timings.summary());
        }
    }

    /** Takes the checkpoints to resume from; returns the position all copied rows are current at (null: none copied). */
    private synchronized SnapshotPoint resume(List<CopyCheckpoint> resumeFrom) {
        SnapshotPoint position = null;
        for (CopyCheckpoint checkpoint : resumeFrom) {
            if (!shapes.containsKey(checkpoint.table())) {
                throw new IllegalArgumentException("checkpoint of " + checkpoint.table() + ", which this copy does not move");
            }
            latest.put(checkpoint.table(), checkpoint);
            if (checkpoint.started() && (position == null || checkpoint.gtid().hasReached(position.position()))) {
                position = checkpoint.point();
            }
        }
        for (CopyTable table : tables) {
            board.table(latest.computeIfAbsent(table.qualifiedName(), name -> CopyCheckpoint.start(name, 0)));
        }
        return position;
    }

    /**
     * Starts the streams that keep the targets current after the copy, from {@code copied}
     * ({@link #run}'s answer); the caller stops them (at cutover).
     */
    public CopyStreams startStreaming(SnapshotPoint copied) {
        readShapes();
        CopyStreams streams = CopyStreams.start(source, targets, shapes, unbounded(), copied, settings.streamWorkers(),
                notices);
        board.streamLag(streams::lagSeconds);
        board.phase(CopyProgress.Phase.STREAMING);
        return streams;
    }

    /**
     * Brings every target to exactly {@code until}, each from its position in {@code from} (target name to the
     * source position it has applied; its streams stopped first), the targets in parallel: a diff then reads the
     * targets and the source at the same position.
     */
    public void catchUpTo(Map<String, MariaDbGtidPosition> from, MariaDbGtidPosition until) throws InterruptedException {
        readShapes();
        List<CopyTarget> behind = new ArrayList<>();
        Map<String, SnapshotPoint> starts = new java.util.HashMap<>();
        for (CopyTarget target : targets) {
            MariaDbGtidPosition start = from.get(target.name());
            if (start == null || !start.hasReached(until)) {
                behind.add(target);
                // From its watermark: everything before it is done, XA transactions included (a prepare holds it back).
                starts.put(target.name(), start == null ? null : SnapshotPoint.at(start));
            }
        }
        if (!behind.isEmpty()) {
            CopyStreams.catchUpEach(source, behind, shapes, unbounded(), starts, until, settings.streamWorkers(), notices);
        }
    }

    private Map<String, CatchUpScope> unbounded() {
        Map<String, List<PkValue>> all = new LinkedHashMap<>();
        shapes.keySet().forEach(name -> all.put(name, List.of()));
        return scopes(all);
    }

    /** The last checkpoint of each table. */
    public synchronized List<CopyCheckpoint> checkpoints() {
        return new ArrayList<>(latest.values());
    }

    // The chunk loop's view of this copy.

    CopySettings settings() {
        return settings;
    }

    int chunkCap() {
        return Math.min(chunkCap, settings.maxChunk());
    }

    ServerEndpoint source() {
        return source;
    }

    List<CopyTarget> targets() {
        return targets;
    }

    boolean cancelled() {
        return cancelled;
    }

    ProgressBoard board() {
        return board;
    }

    CopyTimings timings() {
        return timings;
    }

    synchronized CopyCheckpoint latest(String table) {
        return latest.get(table);
    }

    synchronized void checkpoint(CopyCheckpoint checkpoint) {
        latest.put(checkpoint.table(), checkpoint);
        board.table(checkpoint);
        long saving = System.nanoTime();
        checkpoints.accept(checkpoint);
        timings.since("checkpoint", saving);
    }

    /** Per target, the scope of rows it holds now: finished tables whole, started ones up to their last key. */
    synchronized Map<String, CatchUpScope> currentScopes() {
        Map<String, List<PkValue>> bounds = new LinkedHashMap<>();
        for (CopyCheckpoint checkpoint : latest.values()) {
            if (checkpoint.done()) {
                bounds.put(checkpoint.table(), List.of());
            } else if (!checkpoint.lastPk().isEmpty()) {
                bounds.put(checkpoint.table(), checkpoint.lastPk());
            }
        }
        return scopes(bounds);
    }

    private Map<String, CatchUpScope> scopes(Map<String, List<PkValue>> bounds) {
        Map<String, CatchUpScope> scopes = new LinkedHashMap<>();
        targets.forEach(target -> scopes.put(target.name(), new CatchUpScope(shapes, bounds, target.range())));
        return scopes;
    }

    Map<String, TableShape> shapes() {
        return shapes;
    }

    Consumer<String> notices() {
        return notices;
    }

    /** Waits while the throttle holds the copy; false when cancelled meanwhile. */
    boolean awaitThrottle() throws InterruptedException {
        while (!cancelled) {
            Optional<String> reason = throttle.reason();
            if (reason.isEmpty()) {
                board.throttled("");
                return true;
            }
            board.throttled(reason.get());
            long pausing = System.nanoTime();
            Thread.sleep(settings.throttlePause().toMillis());
            timings.since("throttled", pausing);
        }
        return false;
    }

    /**
     * Whether the throttle holds the copy now; asked at most once per {@link CopySettings#throttlePause()} (each ask may
     * open connections to the source and its replicas), the last answer in between. Copying thread only.
     */
    boolean throttledNow() {
        long asking = System.nanoTime();
        if (throttleAskedNanos != 0 && asking - throttleAskedNanos < settings.throttlePause().toNanos()) {
            return throttledAnswer;
        }
        throttledAnswer = throttle.reason().isPresent();
        throttleAskedNanos = System.nanoTime();
        timings.since("throttle check", asking);
        return throttledAnswer;
    }

    static void await(List<Future<?>> futures) throws ExecutionException, InterruptedException {
        for (Future<?> future : futures) {
            future.get();
        }
    }
}
