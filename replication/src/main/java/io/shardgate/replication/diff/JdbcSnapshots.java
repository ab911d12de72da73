package io.shardgate.replication.diff;

import io.shardgate.storage.checksum.TableChecksum;
import io.shardgate.storage.checksum.TableColumns;
import io.shardgate.storage.checksum.TableName;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * {@link DiffPoints}' matched snapshots as readers. On the first set it reads the table's columns on every
 * server (they must agree, or the checksums could not be compared), the key columns' types and collations
 * and the row estimate on the source, and keeps them for the later sets.
 */
final class JdbcSnapshots implements SnapshotSource {
    private final TableName table;
    private final DiffPoints points;
    private final TableChecksum sourceChecksum;
    private final List<DiffTarget> targets;
    private TableColumns columns;
    private KeyOrder order;
    private long estimatedRows;

    JdbcSnapshots(TableName table, DiffPoints points, TableChecksum sourceChecksum, List<DiffTarget> targets) {
        this.table = requireNonNull(table, "table is null");
        this.points = requireNonNull(points, "points is null");
        this.sourceChecksum = requireNonNull(sourceChecksum, "sourceChecksum is null");
        this.targets = List.copyOf(requireNonNull(targets, "targets is null"));
    }

    @Override
    public Snapshot open() throws SQLException {
        MatchedSnapshots matched = points.open();
        try {
            if (matched.targets().size() != targets.size()) {
                throw new IllegalStateException("the diff points opened " + matched.targets().size()
                        + " target snapshots for " + targets.size() + " targets");
            }
            if (columns == null) {
                learn(matched);
            }
            List<List<ServerReader>> lanes = new ArrayList<>();
            for (int i = 0; i < targets.size(); i++) {
                List<Connection> connections = matched.targetLanes().get(i);
                sameSnapshot(connections, targets.get(i).shard());
                List<ServerReader> readers = new ArrayList<>();
                for (Connection connection : connections) {
                    readers.add(new JdbcServerReader(connection, targets.get(i).checksum(), table, columns));
                }
                lanes.add(List.copyOf(readers));
            }
            return new Opened(matched, new JdbcServerReader(matched.source(), sourceChecksum, table, columns),
                    List.copyOf(lanes), order, estimatedRows);
        } catch (SQLException | RuntimeException e) {
            try {
                matched.close();
            } catch (SQLException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    /**
     * Several connections of one target read one chunk's parts only if they see the same rows: where the target writes
     * a binlog, their snapshots must stand at the same binlog position (nothing committed between their openings).
     */
    static void sameSnapshot(List<Connection> lanes, String shard) throws SQLException {
        if (lanes.size() < 2) {
            return;
        }
        String first = binlogSnapshot(lanes.get(0));
        for (Connection lane : lanes.subList(1, lanes.size())) {
            String other = binlogSnapshot(lane);
            if (!first.equals(other)) {
                throw new IllegalStateException("target " + shard + " took writes while its snapshots were opened (binlog"
                        + " snapshot positions " + first + " and " + other + "): its connections cannot share a chunk");
            }
        }
    }

    private static String binlogSnapshot(Connection connection) throws SQLException {
        StringBuilder at = new StringBuilder();
        try (PreparedStatement statement = connection.prepareStatement("SHOW SESSION STATUS LIKE 'Binlog_snapshot_%'");
             ResultSet rows = statement.executeQuery()) {
            while (rows.next()) {
                at.append(rows.getString(1)).append('=').append(rows.getString(2)).append(' ');
            }
        }
        return at.toString().trim();
    }

    private void learn(MatchedSnapshots matched) throws SQLException {
        TableColumns sourceColumns = sourceChecksum.columns(matched.source(), table);
        for (int i = 0; i < targets.size(); i++) {
            TableColumns target = targets.get(i).checksum().columns(matched.targets().get(i), table);
            if (!target.names().equals(sourceColumns.names()) || !target.nullable().equals(sourceColumns.nullable())
                    || !target.key().equals(sourceColumns.key())) {
                throw new IllegalStateException("the source and target " + targets.get(i).shard() + " disagree on the columns of "
                        + table + ": " + sourceColumns.names() + " key " + sourceColumns.key() + " vs " + target.names()
                        + " key " + target.key());
            }
        }
        order = KeyOrder.of(keyColumns(matched.source(), sourceColumns.key()));
        estimatedRows = estimate(matched.source());
        columns = sourceColumns;
    }

    private List<KeyOrder.Column> keyColumns(Connection connection, List<String> key) throws SQLException {
        Map<String, KeyOrder.Column> byName = new HashMap<>();
        try (PreparedStatement statement = connection.prepareStatement("SELECT COLUMN_NAME, DATA_TYPE, COLLATION_NAME"
                + " FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?")) {
            statement.setString(1, table.schema());
            statement.setString(2, table.table());
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    byName.put(rows.getString(1), new KeyOrder.Column(rows.getString(1), rows.getString(2), rows.getString(3)));
                }
            }
        }
        return key.stream().map(byName::get).toList();
    }

    private long estimate(Connection connection) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(
                "SELECT TABLE_ROWS FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?")) {
            statement.setString(1, table.schema());
            statement.setString(2, table.table());
            try (ResultSet rows = statement.executeQuery()) {
                return rows.next() ? Math.max(0, rows.getLong(1)) : 0;
            }
        }
    }

    private record Opened(MatchedSnapshots matched, ServerReader source, List<List<ServerReader>> targetLanes,
            KeyOrder keyOrder, long estimatedRows) implements Snapshot {
        @Override
        public List<ServerReader> targets() {
            return targetLanes.stream().map(lanes -> lanes.get(0)).toList();
        }

        @Override
        public java.util.OptionalLong openedNanos() {
            return matched.openedNanos();
        }

        @Override
        public void close() throws SQLException {
            matched.close();
        }
    }
}
