package io.shardgate.replication.lag;

import io.shardgate.storage.health.BackendCheck;
import io.shardgate.storage.health.ControlConnection;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;

import static java.util.Objects.requireNonNull;

/**
 * One server's poll: a {@link BackendCheck} that its server's loop runs every poll interval, over
 * the loop's control connection, with the lag monitor's short connect and socket timeouts (a dead
 * or frozen server fails its poll within them; the next poll reconnects).
 */
abstract class Probe implements BackendCheck {
    private final LagMonitorSettings settings;
    private volatile boolean stopped;

    Probe(LagMonitorSettings settings) {
        this.settings = requireNonNull(settings, "settings is null");
    }

    /** Polls once and reports the result; never throws. Use {@link #query} for the connection. */
    abstract void poll(ControlConnection connection);

    @Override
    public final void run(ControlConnection connection) {
        if (!stopped) {
            poll(connection);
        }
    }

    /** Runs {@code work} on the loop's connection with the monitor's timeouts. */
    final <T> T query(ControlConnection connection, ControlConnection.Work<T> work) throws SQLException {
        return connection.run(settings.connectTimeout(), settings.socketTimeout(), work);
    }

    /** No more polls: the monitor closed, and a shared loop may run on. */
    final void stop() {
        stopped = true;
    }

    @Override
    public final Duration interval() {
        return settings.pollInterval();
    }

    @Override
    public final Duration longestRun() {
        return settings.longestPoll();
    }

    /** The first column of the first row, or "" for no row or SQL NULL. */
    static String queryString(Connection connection, String sql) throws SQLException {
        try (Statement statement = connection.createStatement(); ResultSet rows = statement.executeQuery(sql)) {
            String value = rows.next() ? rows.getString(1) : null;
            return value == null ? "" : value;
        }
    }
}
