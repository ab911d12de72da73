package io.shardgate.replication.stream.apply;

import io.shardgate.replication.gtid.MariaDbGtid;
import io.shardgate.replication.gtid.MariaDbGtidPosition;
import io.shardgate.replication.stream.history.SchemaHistory;
import io.shardgate.replication.stream.history.ShapeCodec;
import io.shardgate.replication.stream.history.TableName;
import io.shardgate.replication.stream.history.TableVersion;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The schema history on the target, {@code _shardgate.schema_history}: one row per table version,
 * keyed by table and the GTID of the DDL that made it, written in the same target transaction as
 * that DDL's position. Versions that the watermark has passed and a newer covered version
 * replaces are deleted with each watermark, so the table holds about one row per table.
 */
final class SchemaHistoryTable {
    private final String table;

    /** {@code table}: quoted and qualified ({@link StateTables#history}). */
    SchemaHistoryTable(String table) {
        this.table = table;
    }

    void create(Statement statement) throws SQLException {
        statement.execute("CREATE TABLE IF NOT EXISTS " + table + " ("
                + "schema_name VARCHAR(64) NOT NULL, table_name VARCHAR(64) NOT NULL,"
                + " domain_id INT UNSIGNED NOT NULL, server_id INT UNSIGNED NOT NULL, seq BIGINT UNSIGNED NOT NULL,"
                + " ordinal BIGINT NOT NULL, shape MEDIUMTEXT NULL, unknown_ddl MEDIUMTEXT NULL,"
                + " PRIMARY KEY (schema_name, table_name, domain_id, seq))"
                + " DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin");
    }

    List<TableVersion> load(Connection connection) throws SQLException {
        List<TableVersion> versions = new ArrayList<>();
        try (Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT schema_name, table_name, domain_id, server_id, seq,"
                     + " ordinal, shape, unknown_ddl FROM " + table)) {
            while (rows.next()) {
                TableName name = new TableName(rows.getString(1), rows.getString(2));
                String shape = rows.getString(7);
                versions.add(new TableVersion(name, new MariaDbGtid(rows.getLong(3), rows.getLong(4), rows.getLong(5)),
                        rows.getLong(6), shape == null ? null : ShapeCodec.decode(name, shape), rows.getString(8)));
            }
        }
        return versions;
    }

    /** Writes {@code versions} in the connection's open transaction; the caller commits. */
    void save(Connection connection, List<TableVersion> versions) throws SQLException {
        if (versions.isEmpty()) {
            return;
        }
        try (PreparedStatement statement = connection.prepareStatement("INSERT INTO " + table
                + " (schema_name, table_name, domain_id, server_id, seq, ordinal, shape, unknown_ddl)"
                + " VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON DUPLICATE KEY UPDATE server_id = VALUES(server_id),"
                + " ordinal = VALUES(ordinal), shape = VALUES(shape), unknown_ddl = VALUES(unknown_ddl)")) {
            for (TableVersion version : versions) {
                statement.setString(1, version.table().schema());
                statement.setString(2, version.table().table());
                statement.setLong(3, version.gtid().domain());
                statement.setLong(4, version.gtid().server());
                statement.setLong(5, version.gtid().sequence());
                statement.setLong(6, version.ordinal());
                statement.setString(7, version.shape() == null ? null : ShapeCodec.encode(version.shape()));
                statement.setString(8, version.unknownDdl());
                statement.addBatch();
            }
            statement.executeBatch();
        }
    }

    /**
     * Deletes, in the connection's open transaction, every version that {@code watermark} covers
     * and a newer covered version of the same table replaces: a restart at or after the
     * watermark never reads them.
     */
    void prune(Connection connection, MariaDbGtidPosition watermark) throws SQLException {
        Map<TableName, List<Row>> byTable = new HashMap<>();
        try (Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT schema_name, table_name, domain_id, server_id, seq, ordinal FROM "
                     + table)) {
            while (rows.next()) {
                byTable.computeIfAbsent(new TableName(rows.getString(1), rows.getString(2)), n -> new ArrayList<>())
                        .add(new Row(new MariaDbGtid(rows.getLong(3), rows.getLong(4), rows.getLong(5)), rows.getLong(6)));
            }
        }
        List<Object[]> stale = new ArrayList<>();
        byTable.forEach((name, versions) -> {
            long newest = versions.stream().filter(r -> SchemaHistory.covers(watermark, r.gtid))
                    .mapToLong(Row::ordinal).max().orElse(Long.MIN_VALUE);
            for (Row row : versions) {
                if (row.ordinal < newest && SchemaHistory.covers(watermark, row.gtid)) {
                    stale.add(new Object[]{name.schema(), name.table(), row.gtid.domain(), row.gtid.sequence()});
                }
            }
        });
        if (stale.isEmpty()) {
            return;
        }
        try (PreparedStatement delete = connection.prepareStatement("DELETE FROM " + table
                + " WHERE schema_name = ? AND table_name = ? AND domain_id = ? AND seq = ?")) {
            for (Object[] key : stale) {
                for (int i = 0; i < key.length; i++) {
                    delete.setObject(i + 1, key[i]);
                }
                delete.addBatch();
            }
            delete.executeBatch();
        }
    }

    private record Row(MariaDbGtid gtid, long ordinal) {
    }
}
