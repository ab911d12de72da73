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
}
