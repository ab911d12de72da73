package io.shardgate.replication.topology;

import io.shardgate.storage.Engine;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import static java.util.Objects.requireNonNull;

/**
 * One server of a topology, with the controls fault tests need. Every control acts on this
 * node only and returns once the change has taken effect.
 */
public final class Node {
    private final NodeSpec spec;
    private final ServerProcess server;
    private final Accounts accounts;

    Node(NodeSpec spec, ServerProcess server, Accounts accounts) {
        this.spec = requireNonNull(spec, "spec is null");
        this.server = requireNonNull(server, "server is null");
        this.accounts = requireNonNull(accounts, "accounts is null");
    }

    /** Such as {@code s0-primary} or {@code s1-replica2}. */
    public String name() {
        return spec.name();
    }

    public String shard() {
        return spec.shard();
    }

    public NodeRole role() {
        return spec.role();
    }

    public Engine engine() {
        return spec.engine();
    }

    public int serverId() {
        return spec.serverId();
    }

    public String host() {
        return server.host();
    }

    public int port() {
        return server.port();
    }

    /** {@code host:port}, as the proxy config writes it. */
    public String address() {
        return host() + ":" + port();
    }

    public long pid() {
        return server.pid();
    }

    public boolean isAlive() {
        return server.isAlive();
    }

    public String jdbcUrl() {
        return Jdbc.url(host(), port());
    }

    /** A new control connection as the topology's account; the caller closes it. */
    public Connection connect() throws SQLException {
        return Jdbc.connect(host(), port(), accounts.user(), accounts.password());
    }

    /** Runs statements on a fresh connection. */
    public void execute(String... sql) {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            for (String each : sql) {
                statement.execute(each);
            }
        } catch (SQLException e) {
            throw new TopologyException(name() + ": " + e.getMessage(), e);
        }
    }

    /** The first column of the first row of a query, as a string (null for SQL NULL or no row). */
    public String queryString(String sql) {
        try (Connection connection = connect(); Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery(sql)) {
            return rows.next() ? rows.getString(1) : null;
        } catch (SQLException e) {
            throw new TopologyException(name() + ": " + e.getMessage(), e);
        }
    }

    /** {@code SHOW SLAVE STATUS} as column name to value; empty on a primary. */
    public Map<String, String> replicaStatus() {
        try (Connection connection = connect(); Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SHOW SLAVE STATUS")) {
            Map<String, String> status = new LinkedHashMap<>();
            if (rows.next()) {
                for (int i = 1; i <= rows.getMetaData().getColumnCount(); i++) {
                    status.put(rows.getMetaData().getColumnLabel(i), rows.getString(i));
                }
            }
            return status;
        } catch (SQLException e) {
            throw new TopologyException(name() + ": " + e.getMessage(), e);
        }
    }

    /** {@code @@gtid_current_pos}: every transaction this server has applied or written. */
    public String gtidCurrentPos() {
        String pos = queryString("SELECT @@GLOBAL.gtid_current_pos");
        return pos == null ? "" : pos;
    }

    /** {@code @@gtid_binlog_pos}: the last transaction written to this server's binary log, per domain. */
    public String gtidBinlogPos() {
        String pos = queryString("SELECT @@GLOBAL.gtid_binlog_pos");
        return pos == null ? "" : pos;
    }

    /**
     * Waits until this replica has applied {@code gtidPos} ({@code MASTER_GTID_WAIT}); returns
     * false when {@code timeout} passed first.
     */
    public boolean awaitGtid(String gtidPos, Duration timeout) {
        requireReplica("awaitGtid");
        double seconds = Math.max(0.001, timeout.toMillis() / 1000.0);
        String result = queryString("SELECT MASTER_GTID_WAIT('" + gtidPos.replace("'", "") + "', " + seconds + ")");
        return "0".equals(result);
    }

    public void stopSqlThread() {
        requireReplica("stopSqlThread");
        execute("STOP SLAVE SQL_THREAD");
        if (!Poll.until(Duration.ofSeconds(30), () -> "No".equals(replicaStatus().get("Slave_SQL_Running")))) {
            throw new TopologyException(name() + ": SQL thread still running 30 s after STOP SLAVE SQL_THREAD");
        }
    }

    public void startSqlThread() {
        requireReplica("startSqlThread");
        execute("START SLAVE SQL_THREAD");
        if (!Poll.until(Duration.ofSeconds(30), () -> "Yes".equals(replicaStatus().get("Slave_SQL_Running")))) {
            throw new TopologyException(name() + ": SQL thread not running 30 s after START SLAVE SQL_THREAD: "
                    + replicaStatus().get("Last_SQL_Error"));
        }
    }

    /**
     * Blocks this replica's SQL thread without stopping it: a connection holds
     * {@code FLUSH TABLES WITH READ LOCK} until the returned handle is closed. The thread still
     * shows as running, which is exactly the case lag monitors get wrong.
     */
    public Block blockWithReadLock() {
        try {
            Connection connection = connect();
            try (Statement statement = connection.createStatement()) {
                statement.execute("FLUSH TABLES WITH READ LOCK");
            } catch (SQLException e) {
                connection.close();
                throw e;
            }
            return new Block(name(), connection);
        } catch (SQLException e) {
            throw new TopologyException(name() + ": cannot take the global read lock: " + e.getMessage(), e);
        }
    }

    /** SIGKILL. */
    public void kill() {
        server.kill();
    }

    /** Clean shutdown. */
    public void stop() {
        server.stop(Duration.ofSeconds(60));
    }

    /** Starts the node again after {@link #kill()} or {@link #stop()}; a replica resumes replicating. */
    public void restart() {
        server.start();
    }

    /** SIGSTOP: connections hang. */
    public void freeze() {
        server.freeze();
    }

    /** SIGCONT. */
    public void thaw() {
        server.thaw();
    }

    ServerProcess server() {
        return server;
    }

    private void requireReplica(String what) {
        if (role() != NodeRole.REPLICA) {
            throw new TopologyException(what + " needs a replica; " + name() + " is a primary");
        }
    }

    @Override
    public String toString() {
        return name() + "(" + engine().configName() + ", " + address() + ", server_id " + serverId()
                + ", pid " + pid() + ")";
    }

    /** A held global read lock; closing it releases the lock. */
    public static final class Block implements AutoCloseable {
        private final String node;
        private final Connection connection;

        private Block(String node, Connection connection) {
            this.node = node;
            this.connection = connection;
        }

        @Override
        public void close() {
            try (Connection ignored = connection; Statement statement = connection.createStatement()) {
                statement.execute("UNLOCK TABLES");
            } catch (SQLException e) {
                throw new TopologyException(node + ": cannot release the global read lock: " + e.getMessage(), e);
            }
        }
    }
}
