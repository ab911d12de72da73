package io.shardgate.replication.diff;

import io.shardgate.replication.gtid.MariaDbGtidPosition;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

import static java.util.Objects.requireNonNull;

/**
 * Matched snapshots of servers that nobody writes to (tests, a stopped stream, a quiesced table):
 * any snapshots match, so each server simply opens its own, the source first. Each {@link #open()}
 * makes new connections; closing the set closes them.
 */
public final class QuiescedDiffPoints implements DiffPoints {
    private final ConnectionSource source;
    private final List<ConnectionSource> targets;

    public QuiescedDiffPoints(ConnectionSource source, List<ConnectionSource> targets) {
        this.source = requireNonNull(source, "source is null");
        this.targets = List.copyOf(requireNonNull(targets, "targets is null"));
        if (this.targets.isEmpty()) {
            throw new IllegalArgumentException("a diff needs at least one target");
        }
    }

    @Override
    public MatchedSnapshots open() throws SQLException {
        List<Connection> opened = new ArrayList<>();
        try {
            Connection sourceConnection = source.connect();
            opened.add(sourceConnection);
            MariaDbGtidPosition position = SnapshotGtid.beginAt(sourceConnection);
            for (ConnectionSource target : targets) {
                Connection connection = target.connect();
                opened.add(connection);
                SnapshotGtid.beginSnapshot(connection);
            }
            return new Opened(opened, position);
        } catch (SQLException | RuntimeException e) {
            closeAll(opened, e);
            throw e;
        }
    }

    private static void closeAll(List<Connection> connections, Exception cause) {
        for (Connection connection : connections) {
            try {
                connection.close();
            } catch (SQLException suppressed) {
                cause.addSuppressed(suppressed);
            }
        }
    }

    private record Opened(List<Connection> connections, MariaDbGtidPosition position) implements MatchedSnapshots {
        @Override
        public Connection source() {
            return connections.get(0);
        }

        @Override
        public List<Connection> targets() {
            return connections.subList(1, connections.size());
        }

        @Override
        public void close() throws SQLException {
            SQLException first = null;
            for (Connection connection : connections) {
                try (connection) {
                    SnapshotGtid.end(connection);
                } catch (SQLException e) {
                    if (first == null) {
                        first = e;
                    } else {
                        first.addSuppressed(e);
                    }
                }
            }
            if (first != null) {
                throw first;
            }
        }
    }
}
