package io.shardgate.proxy.reshard;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.shardgate.replication.copy.CopyTable;
import io.shardgate.replication.copy.CopyTarget;
import io.shardgate.replication.stream.ServerEndpoint;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * A table move's sizes before and after: each table's data and index bytes and its engine on the source and on the
 * target, from {@code information_schema.TABLES} after {@code ANALYZE TABLE}; on MyRocks after a memtable flush too,
 * since its sizes count only what is on disk.
 */
final class TableSizes {
    private TableSizes() {
    }

    static ObjectNode of(ReshardPlan plan) throws SQLException {
        ObjectNode sizes = JsonNodeFactory.instance.objectNode();
        CopyTarget target = plan.targets().get(0);
        for (CopyTable table : plan.tables()) {
            ObjectNode entry = sizes.putObject(table.qualifiedName());
            size(plan.sourceEndpoint(), table, entry, "source");
            size(target.endpoint(), table, entry, "target");
        }
        return sizes;
    }

    private static String engine(Connection connection, CopyTable table) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(
                "SELECT ENGINE FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?")) {
            statement.setString(1, table.schema());
            statement.setString(2, table.table());
            try (ResultSet rows = statement.executeQuery()) {
                return rows.next() ? rows.getString(1) : "";
            }
        }
    }

    private static void size(ServerEndpoint server, CopyTable table, ObjectNode entry, String side) throws SQLException {
        try (Connection connection = server.connect()) {
            try (Statement analyze = connection.createStatement()) {
                if (engine(connection, table).equalsIgnoreCase("ROCKSDB")) {
                    analyze.execute("SET GLOBAL rocksdb_force_flush_memtable_now = ON"); // rows still in memtables have no size yet
                }
                analyze.execute("ANALYZE TABLE `" + table.schema().replace("`", "``") + "`.`" + table.table().replace("`", "``") + "`");
            }
            try (PreparedStatement statement = connection.prepareStatement("SELECT ENGINE, DATA_LENGTH + INDEX_LENGTH, TABLE_ROWS"
                    + " FROM information_schema.TABLES WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?")) {
                statement.setString(1, table.schema());
                statement.setString(2, table.table());
                try (ResultSet rows = statement.executeQuery()) {
                    if (rows.next()) {
                        entry.put(side + "_engine", rows.getString(1)).put(side + "_bytes", rows.getLong(2))
                                .put(side + "_rows_estimate", rows.getLong(3));
                    }
                }
            }
        }
    }
}
