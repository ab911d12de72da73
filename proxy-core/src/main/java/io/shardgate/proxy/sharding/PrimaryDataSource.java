package io.shardgate.proxy.sharding;

import com.zaxxer.hikari.HikariDataSource;

import javax.sql.DataSource;
import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.function.Supplier;
import java.util.logging.Logger;

import static java.util.Objects.requireNonNull;

/**
 * The control plane's connections to one shard's primary, wherever the primary is now: each
 * {@link #getConnection()} asks for the current pool, so a holder of this data source (the XA decision
 * table, the sequences) follows a primary a topology change replaced.
 */
final class PrimaryDataSource implements DataSource {
    private final Supplier<HikariDataSource> current;

    PrimaryDataSource(Supplier<HikariDataSource> current) {
        this.current = requireNonNull(current, "current is null");
    }

    @Override
    public Connection getConnection() throws SQLException {
        return current.get().getConnection();
    }

    @Override
    public Connection getConnection(String username, String password) throws SQLException {
        return current.get().getConnection(username, password);
    }

    @Override
    public PrintWriter getLogWriter() throws SQLException {
        return current.get().getLogWriter();
    }

    @Override
    public void setLogWriter(PrintWriter out) throws SQLException {
        current.get().setLogWriter(out);
    }

    @Override
    public void setLoginTimeout(int seconds) throws SQLException {
        current.get().setLoginTimeout(seconds);
    }

    @Override
    public int getLoginTimeout() throws SQLException {
        return current.get().getLoginTimeout();
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        throw new SQLFeatureNotSupportedException("no parent logger");
    }

    @Override
    public <T> T unwrap(Class<T> type) throws SQLException {
        if (type.isInstance(this)) {
            return type.cast(this);
        }
        return current.get().unwrap(type);
    }

    @Override
    public boolean isWrapperFor(Class<?> type) throws SQLException {
        return type.isInstance(this) || current.get().isWrapperFor(type);
    }
}
