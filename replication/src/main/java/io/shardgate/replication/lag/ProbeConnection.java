package io.shardgate.replication.lag;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import static java.util.Objects.requireNonNull;

/**
 * The one control connection a poller keeps to its server, opened when first needed with short
 * timeouts and dropped on any failure, so that the next poll reconnects. The connect timeout
 * also bounds the handshake, so a frozen server (SIGSTOP: the kernel still accepts the TCP
 * connection) fails a connect as fast as a dead one. Used by one thread only.
 */
final class ProbeConnection implements AutoCloseable {
    private final String url;
    private final String user;
    private final String password;
    private Connection connection;

    ProbeConnection(MonitoredServer server, String user, String password, LagMonitorSettings settings) {
        requireNonNull(server, "server is null");
        this.user = requireNonNull(user, "user is null");
        this.password = requireNonNull(password, "password is null");
        String host = server.host().contains(":") ? "[" + server.host() + "]" : server.host();
        this.url = "jdbc:mariadb://" + host + ":" + server.port() + "/?connectTimeout="
                + settings.connectTimeout().toMillis() + "&socketTimeout=" + settings.socketTimeout().toMillis();
    }

    /** What one poll does with the connection. */
    interface Work<T> {
        T run(Connection connection) throws SQLException;
    }

    /** Runs {@code work}, connecting first if needed; a failure closes the connection and is rethrown. */
    <T> T run(Work<T> work) throws SQLException {
        try {
            if (connection == null) {
                connection = DriverManager.getConnection(url, user, password);
            }
            return work.run(connection);
        } catch (SQLException | RuntimeException e) {
            close();
            throw e;
        }
    }

    /** The first column of the first row, or "" for no row or SQL NULL. */
    static String queryString(Connection connection, String sql) throws SQLException {
        try (Statement statement = connection.createStatement(); ResultSet rows = statement.executeQuery(sql)) {
            String value = rows.next() ? rows.getString(1) : null;
            return value == null ? "" : value;
        }
    }

    @Override
    public void close() {
        if (connection == null) {
            return;
        }
        try {
            connection.close();
        } catch (SQLException ignored) {
            // Already broken; the point was to drop it.
        } finally {
            connection = null;
        }
    }
}
