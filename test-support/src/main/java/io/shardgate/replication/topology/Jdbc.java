package io.shardgate.replication.topology;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;

/** Control-plane connections to topology nodes (MariaDB Connector/J). */
final class Jdbc {
    private Jdbc() {
    }

    static String url(String host, int port) {
        return "jdbc:mariadb://" + host + ":" + port + "/?connectTimeout=2000&socketTimeout=120000";
    }

    static Connection connect(String host, int port, String user, String password) throws SQLException {
        return DriverManager.getConnection(url(host, port), user, password);
    }

    static boolean accepts(String host, int port, String user, String password) {
        try (Connection ignored = connect(host, port, user, password)) {
            return true;
        } catch (SQLException e) {
            return false;
        }
    }

    /**
     * Whether the server answering on {@code port} keeps its data in {@code dataDir}: another
     * server started at the same moment may have taken a port both were offered, and answer there
     * while ours is still starting (to fail on the bind later).
     */
    static boolean servesDataDir(String host, int port, String user, String password, java.nio.file.Path dataDir) {
        try (Connection connection = connect(host, port, user, password);
             java.sql.Statement statement = connection.createStatement();
             java.sql.ResultSet rows = statement.executeQuery("SELECT @@datadir")) {
            return rows.next() && real(java.nio.file.Path.of(rows.getString(1))).equals(real(dataDir));
        } catch (SQLException e) {
            return false;
        }
    }

    private static java.nio.file.Path real(java.nio.file.Path path) {
        try {
            return path.toRealPath();
        } catch (java.io.IOException e) {
            return path.toAbsolutePath().normalize();
        }
    }
}
