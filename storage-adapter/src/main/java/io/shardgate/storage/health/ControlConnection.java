package io.shardgate.storage.health;

import io.shardgate.storage.BackendEndpoint;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;

import static java.util.Objects.requireNonNull;

/**
 * The one control connection a health monitor keeps to its backend: opened when first needed,
 * dropped on any failure so that the next probe reconnects, and replaced when a sampler's
 * own timeout closed it. Used by one thread only.
 */
final class ControlConnection implements AutoCloseable {
    private final BackendEndpoint backend;
    private final Duration connectTimeout;
    private final Duration socketTimeout;
    private Connection connection;

    ControlConnection(BackendEndpoint backend, Duration connectTimeout, Duration socketTimeout) {
        this.backend = requireNonNull(backend, "backend is null");
        this.connectTimeout = requireNonNull(connectTimeout, "connectTimeout is null");
        this.socketTimeout = requireNonNull(socketTimeout, "socketTimeout is null");
    }

    interface Work<T> {
        T run(Connection connection) throws SQLException;
    }

    /** Runs {@code work}, connecting first if needed; a failure closes the connection and is rethrown. */
    <T> T run(Work<T> work) throws SQLException {
        try {
            if (connection == null || connection.isClosed()) {
                connection = backend.connect(connectTimeout, socketTimeout);
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
