package io.shardgate.storage.health;

import io.shardgate.storage.BackendEndpoint;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;

import static java.util.Objects.requireNonNull;

/**
 * The one control connection a {@link BackendLoop} keeps to its backend, shared by every check
 * the loop runs: opened when first needed, dropped on any failure so that the next run
 * reconnects, and replaced when a sampler's own timeout closed it. Each run names its timeouts:
 * the connect timeout applies when that run opens the connection (it also bounds the handshake,
 * so a frozen server fails as fast as a dead one), and the socket timeout is set for that run's
 * queries. Used by the loop's thread only.
 */
public final class ControlConnection implements AutoCloseable {
    /** Opens a connection with these timeouts. */
    @FunctionalInterface
    public interface Connector {
        Connection connect(Duration connectTimeout, Duration socketTimeout) throws SQLException;
    }

    /** What one run does with the connection. */
    @FunctionalInterface
    public interface Work<T> {
        T run(Connection connection) throws SQLException;
    }

    private final Connector connector;
    private Connection connection;
    private int socketTimeoutMillis;

    public ControlConnection(Connector connector) {
        this.connector = requireNonNull(connector, "connector is null");
    }

    /** A connection to {@code backend} with its account. */
    public ControlConnection(BackendEndpoint backend) {
        this(requireNonNull(backend, "backend is null")::connect);
    }

    /** A MariaDB Connector/J connection to {@code host:port} with this account. */
    public static ControlConnection to(String host, int port, String user, String password) {
        requireNonNull(host, "host is null");
        requireNonNull(user, "user is null");
        requireNonNull(password, "password is null");
        String address = (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
        return new ControlConnection((connectTimeout, socketTimeout) -> DriverManager.getConnection("jdbc:mariadb://"
                + address + "/?connectTimeout=" + connectTimeout.toMillis() + "&socketTimeout=" + socketTimeout.toMillis(),
                user, password));
    }

    /**
     * Runs {@code work} with these timeouts, connecting first if needed; a failure closes the
     * connection and is rethrown.
     */
    public <T> T run(Duration connectTimeout, Duration socketTimeout, Work<T> work) throws SQLException {
        int socketMillis = (int) Math.max(1, Math.min(Integer.MAX_VALUE, socketTimeout.toMillis()));
        try {
            if (connection == null || connection.isClosed()) {
                connection = null;
                connection = connector.connect(connectTimeout, socketTimeout);
                socketTimeoutMillis = socketMillis;
            } else if (socketTimeoutMillis != socketMillis) {
                connection.setNetworkTimeout(Runnable::run, socketMillis);
                socketTimeoutMillis = socketMillis;
            }
            return work.run(connection);
        } catch (SQLException | RuntimeException e) {
            close();
            throw e;
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
