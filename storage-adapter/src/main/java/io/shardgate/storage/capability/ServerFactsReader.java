package io.shardgate.storage.capability;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * Reads {@link ServerFacts} over a control connection: {@code VERSION()},
 * {@code information_schema.ENGINES} and {@code PLUGINS}, {@code SHOW GLOBAL VARIABLES}, the
 * {@code Innodb_have_*} status values and, when MyRocks is loaded,
 * {@code information_schema.ROCKSDB_CF_OPTIONS}. Five or six small queries, run once per
 * backend at startup.
 */
public final class ServerFactsReader {

    public ServerFacts read(Connection connection) throws SQLException {
        requireNonNull(connection, "connection is null");
        try (Statement statement = connection.createStatement()) {
            String version = single(statement, "SELECT VERSION()");
            Map<String, String> engines = pairs(statement, "SELECT ENGINE, SUPPORT FROM information_schema.ENGINES");
            Map<String, String> plugins = pairs(statement,
                    "SELECT PLUGIN_NAME, PLUGIN_STATUS FROM information_schema.PLUGINS");
            Map<String, String> variables = pairs(statement, "SHOW GLOBAL VARIABLES");
            Map<String, String> status = pairs(statement, "SHOW GLOBAL STATUS LIKE 'Innodb\\_have\\_%'");
            Map<String, Map<String, String>> families = new LinkedHashMap<>();
            if ("ACTIVE".equalsIgnoreCase(plugins.get("ROCKSDB_CF_OPTIONS"))) {
                try (ResultSet rows = statement.executeQuery(
                        "SELECT CF_NAME, OPTION_TYPE, VALUE FROM information_schema.ROCKSDB_CF_OPTIONS")) {
                    while (rows.next()) {
                        families.computeIfAbsent(rows.getString(1), name -> new LinkedHashMap<>())
                                .put(rows.getString(2), rows.getString(3));
                    }
                }
            }
            return new ServerFacts(version, engines, plugins, variables, status, families);
        }
    }

    private static String single(Statement statement, String sql) throws SQLException {
        try (ResultSet rows = statement.executeQuery(sql)) {
            return rows.next() ? rows.getString(1) : "";
        }
    }

    private static Map<String, String> pairs(Statement statement, String sql) throws SQLException {
        Map<String, String> pairs = new LinkedHashMap<>();
        try (ResultSet rows = statement.executeQuery(sql)) {
            while (rows.next()) {
                pairs.put(rows.getString(1), rows.getString(2));
            }
        }
        return pairs;
    }
}
