package io.shardgate.proxy.reshard;

import io.shardgate.replication.copy.CopyStreams;
import io.shardgate.replication.copy.CopyTarget;
import io.shardgate.replication.copy.TableCopy;
import io.shardgate.replication.diff.DiffPoints;
import io.shardgate.replication.diff.MatchedSnapshots;
import io.shardgate.replication.diff.SnapshotGtid;
import io.shardgate.replication.gtid.MariaDbGtidPosition;
import io.shardgate.replication.gtid.SnapshotPoint;
import io.shardgate.replication.stream.ServerEndpoint;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * The job's streams, and the matched snapshots its diff reads: to open a set, the streams stop, the source opens a
 * consistent snapshot at GTID position G, every target is brought to exactly G and opens its own, and the streams go on
 * from G (reading from its lookback, for the XA transactions prepared before G and not yet committed: neither side
 * shows them). The targets then hold what the source held at G, while the source goes on taking writes.
 */
final class PausedStreams implements DiffPoints, AutoCloseable {
    private static final System.Logger LOG = System.getLogger(PausedStreams.class.getName());
    /** Snapshot connections per target: the diff reads a chunk's part of a target over each at once. */
    static final int TARGET_LANES = 2;
    private final TableCopy copy;
    private final ServerEndpoint source;
    private final List<CopyTarget> targets;
    private CopyStreams streams;
    /** Where the running streams started: a target that applied nothing since stands there. */
    private SnapshotPoint startedAt;

    PausedStreams(TableCopy copy, ServerEndpoint source, List<CopyTarget> targets, SnapshotPoint from) {
        this.copy = requireNonNull(copy, "copy is null");
        this.source = requireNonNull(source, "source is null");
        this.targets = List.copyOf(targets);
        start(from);
    }

    private void start(SnapshotPoint from) {
        streams = copy.startStreaming(from);
        startedAt = from;
    }

    /**
     * Each target's applied source position, once its streams stopped: its watermark, which starts where the stream read
     * from (the lookback) and stays before an XA PREPARE until its end, so a stream from it reads that PREPARE again.
     */
    private Map<String, MariaDbGtidPosition> applied() {
        Map<String, MariaDbGtidPosition> applied = new HashMap<>();
        streams.applied().forEach((target, position) -> applied.put(target,
                startedAt != null && !position.hasReached(startedAt.lookback()) ? startedAt.lookback()
                        : position.isEmpty() ? null : position));
        return applied;
    }

    /** Whether every target applied everything up to {@code position}. */
    private boolean appliedAll(MariaDbGtidPosition position) {
        return applied().values().stream().allMatch(applied -> applied != null && applied.hasReached(position));
    }

    synchronized CopyStreams streams() {
        return streams;
    }

    /** The source's binlog position now: the streams are caught up once every target {@linkplain #reached reached} it. */
    MariaDbGtidPosition sourcePosition() throws SQLException {
        try (Connection connection = source.connect(); java.sql.Statement statement = connection.createStatement();
             java.sql.ResultSet rows = statement.executeQuery("SELECT @@gtid_binlog_pos")) {
            return MariaDbGtidPosition.parse(rows.next() && rows.getString(1) != null ? rows.getString(1) : "");
        }
    }

    /**
     * Whether every target applied the source's transactions up to {@code position} (or they were not for it). A
     * stream that applied nothing yet has no lag to show: this is what says it read its backlog.
     */
    synchronized boolean reached(MariaDbGtidPosition position) {
        return position.isEmpty() || appliedAll(position);
    }

    @Override
    public synchronized MatchedSnapshots open() throws SQLException {
        List<Connection> opened = new ArrayList<>();
        boolean paused = false;
        try {
            long began = System.nanoTime();
            // Connected while the streams still run: connecting is most of what opening the targets' snapshots costs.
            Connection sourceConnection = source.connect();
            opened.add(sourceConnection);
            List<List<Connection>> targetConnections = new ArrayList<>();
            for (CopyTarget target : targets) {
                List<Connection> lanes = new ArrayList<>();
                for (int lane = 0; lane < TARGET_LANES; lane++) {
                    Connection connection = target.endpoint().connect();
                    opened.add(connection);
                    lanes.add(connection);
                }
                targetConnections.add(List.copyOf(lanes));
            }
            long connected = System.nanoTime();
            streams.stop();
            paused = true;
            long stopped = System.nanoTime();
            Map<String, MariaDbGtidPosition> applied = applied();
            SnapshotPoint point = SnapshotGtid.begin(sourceConnection);
            MariaDbGtidPosition position = point.position();
            long snapshot = System.nanoTime();
            copy.catchUpTo(applied, position);
            long caughtUp = System.nanoTime();
            for (List<Connection> lanes : targetConnections) {
                for (Connection connection : lanes) {
                    SnapshotGtid.beginSnapshot(connection); // while its stream stands, each of a target's snapshots sees G
                }
            }
            long targetsOpened = System.nanoTime();
            start(point);
            LOG.log(System.Logger.Level.INFO, String.format(java.util.Locale.ROOT, "matched snapshots at %s in %.2f s: connected"
                    + " %.2f s, streams stopped %.2f s, source snapshot %.2f s, targets caught up %.2f s, target snapshots"
                    + " %.2f s, streams started %.2f s", point, seconds(began, System.nanoTime()), seconds(began, connected),
                    seconds(connected, stopped),
                    seconds(stopped, snapshot), seconds(snapshot, caughtUp), seconds(caughtUp, targetsOpened),
                    seconds(targetsOpened, System.nanoTime())));
            return new Matched(sourceConnection, List.copyOf(targetConnections), position);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            closeAll(opened);
            throw new SQLException("interrupted while pausing the streams for the diff", e);
        } catch (SQLException | RuntimeException e) {
            closeAll(opened);
            if (paused && streams.failure() == null) {
                start(startedAt); // each target from where it stood; what it applied is skipped by its watermark
            }
            throw e;
        }
    }

    private static double seconds(long from, long to) {
        return (to - from) / 1e9;
    }

    private static void closeAll(List<Connection> connections) {
        for (Connection connection : connections) {
            try {
                connection.close();
            } catch (SQLException ignored) {
                // closing after a failure: the failure is what the caller hears of
            }
        }
    }

    /** Stops the streams (after the cutover's switch: the source takes no writes for the moved rows any more). */
    synchronized void pause() throws InterruptedException {
        streams.stop();
    }

    @Override
    public synchronized void close() {
        streams.close();
    }

    private record Matched(Connection source, List<List<Connection>> targetLanes, MariaDbGtidPosition position)
            implements MatchedSnapshots {
        @Override
        public List<Connection> targets() {
            return targetLanes.stream().map(lanes -> lanes.get(0)).toList();
        }

        @Override
        public void close() throws SQLException {
            List<Connection> all = new ArrayList<>();
            targetLanes.forEach(all::addAll);
            all.add(source);
            closeAll(all);
        }
    }
}
