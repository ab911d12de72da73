package io.shardgate.it;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Transaction-level multiplexing: more client sessions than backend connections (the pool has 2),
 * each session's settings, user variables, insert id and prepared statements following it from one
 * pooled connection to the next, and the state that cannot move (transactions, temporary tables,
 * locks, cursors, changes inside procedures) keeping its connection.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SessionStateIT {
    private static final int BACKEND_CONNECTIONS = 2;
    private ProxyFixture proxy;

    @BeforeAll
    void start() {
        proxy = ProxyFixture.withOwnShard(Map.of(), "limits: { max_backend_connections: " + BACKEND_CONNECTIONS
                        + ", backend_acquire_timeout_ms: 20000 }\n",
                "CREATE DATABASE ss",
                "CREATE TABLE ss.t (id INT AUTO_INCREMENT PRIMARY KEY, v VARCHAR(40))",
                "USE ss", "INSERT INTO t (v) SELECT CONCAT('row ', seq) FROM seq_1_to_100",
                "CREATE PROCEDURE ss.setv(x INT) SET @from_procedure = x");
    }

    @AfterAll
    void stop() {
        if (proxy != null) {
            proxy.close();
        }
    }

    /** Waits until the backend shows at most the pool's connections (those in schema ss: the health probe's has none) (a replaced one takes a moment to leave). */
    private void assertBackendConnectionsWithinPool() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        int seen = backendConnections();
        while (seen > BACKEND_CONNECTIONS && System.nanoTime() < deadline) {
            Thread.sleep(50); // poll interval while a replaced connection leaves the server
            seen = backendConnections();
        }
        assertThat(seen).as("backend connections of the proxy's user: %s", proxy.topology().shard("s0").primary().queryString(
                "SELECT GROUP_CONCAT(CONCAT(ID, ':', COMMAND, ':', TIME, ':', IFNULL(INFO, '')) SEPARATOR ' | ') FROM information_schema.PROCESSLIST"
                        + " WHERE USER = '" + proxy.topology().accounts().user() + "' AND ID <> CONNECTION_ID() AND DB = 'ss'"))
                .isLessThanOrEqualTo(BACKEND_CONNECTIONS);
    }

    private int backendConnections() {
        return Integer.parseInt(proxy.topology().shard("s0").primary().queryString(
                "SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE USER = '" + proxy.topology().accounts().user()
                        + "' AND ID <> CONNECTION_ID() AND DB = 'ss'"));
    }

    private static String one(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet r = s.executeQuery(sql)) {
            assertThat(r.next()).isTrue();
            return r.getString(1);
        }
    }

    @Test
    void settingsAndUserVariablesFollowEachSession() throws Exception {
        List<Connection> sessions = new ArrayList<>();
        try {
            for (int i = 0; i < 6; i++) {
                Connection c = i % 2 == 0 ? proxy.mariadb("ss", "") : proxy.mysql("ss", "sslMode=DISABLED");
                try (Statement s = c.createStatement()) {
                    s.execute("SET time_zone = '+0" + i + ":00', sql_mode = '" + (i % 2 == 0 ? "ANSI_QUOTES" : "STRICT_ALL_TABLES") + "'");
                    s.execute("SET @v = 'session " + i + " \u00e9\\\\', @n = " + (i * 1_000_000_000_000L) + ", @d = " + i + ".5e0, @dec = " + i
                            + ".25, @b = X'00FF" + i + "0'");
                }
                sessions.add(c);
            }
            for (int round = 0; round < 5; round++) {
                for (int i = 0; i < sessions.size(); i++) {
                    String row = one(sessions.get(i), "SELECT CONCAT_WS('|', @@time_zone, @@sql_mode, @v, @n, @d, @dec, HEX(@b), "
                            + "COLLATION(@v), @n + 1, @d * 2)");
                    assertThat(row).as("session %d, round %d", i, round).isEqualTo("+0" + i + ":00|"
                            + (i % 2 == 0 ? "ANSI_QUOTES" : "STRICT_ALL_TABLES") + "|session " + i + " \u00e9\\|" + (i * 1_000_000_000_000L)
                            + "|" + i + ".5|" + i + ".25|00FF" + i + "0|utf8mb4_general_ci|" + (i * 1_000_000_000_000L + 1) + "|" + (2 * i + 1));
                }
                assertBackendConnectionsWithinPool();
            }
        } finally {
            for (Connection c : sessions) {
                c.close();
            }
        }
    }

    @Test
    void concurrentSessionsKeepTheirOwnStateAndStatements() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<Integer>> results = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                int id = t;
                results.add(pool.submit(() -> {
                    try (Connection c = id % 2 == 0 ? proxy.mariadb("ss", "useServerPrepStmts=true")
                            : proxy.mysql("ss", "sslMode=DISABLED&useServerPrepStmts=true&cachePrepStmts=true")) {
                        try (Statement s = c.createStatement()) {
                            s.execute("SET @mine = " + id + ", time_zone = '+0" + id + ":00'");
                        }
                        int checked = 0;
                        try (PreparedStatement ps = c.prepareStatement("SELECT v, @mine, @@time_zone, ? FROM t WHERE id = ?")) {
                            for (int i = 1; i <= 200; i++) {
                                ps.setString(1, "t" + id);
                                ps.setInt(2, i % 100 + 1);
                                try (ResultSet r = ps.executeQuery()) {
                                    assertThat(r.next()).isTrue();
                                    assertThat(r.getString(1)).isEqualTo("row " + (i % 100 + 1));
                                    assertThat(r.getInt(2)).isEqualTo(id);
                                    assertThat(r.getString(3)).isEqualTo("+0" + id + ":00");
                                    assertThat(r.getString(4)).isEqualTo("t" + id);
                                    checked++;
                                }
                            }
                        }
                        return checked;
                    }
                }));
            }
            for (Future<Integer> result : results) {
                assertThat(result.get(120, TimeUnit.SECONDS)).isEqualTo(200);
            }
            assertBackendConnectionsWithinPool();
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void transactionsTemporaryTablesLocksAndProceduresKeepTheirConnection() throws Exception {
        try (Connection a = proxy.mariadb("ss", ""); Connection b = proxy.mariadb("ss", "")) {
            String thread = one(a, "SELECT @@pseudo_thread_id");
            a.setAutoCommit(false);
            try (Statement s = a.createStatement()) {
                s.executeUpdate("INSERT INTO t (v) VALUES ('uncommitted')");
            }
            for (int i = 0; i < 5; i++) {
                assertThat(one(b, "SELECT COUNT(*) FROM t WHERE v = 'uncommitted'")).isEqualTo("0");
            }
            assertThat(one(a, "SELECT @@pseudo_thread_id")).isEqualTo(thread);
            a.commit();
            a.setAutoCommit(true);
            assertThat(one(b, "SELECT COUNT(*) FROM t WHERE v = 'uncommitted'")).isEqualTo("1");

            try (Statement s = a.createStatement()) {
                s.execute("CREATE TEMPORARY TABLE scratch (x INT)");
                s.execute("INSERT INTO scratch VALUES (42)");
            }
            // The temporary table exists only on a's connection: b, in between, cannot see it.
            assertThatThrownBy(() -> one(b, "SELECT x FROM scratch")).hasMessageContaining("doesn't exist");
            assertThat(one(a, "SELECT x FROM scratch")).isEqualTo("42");

            try (Statement s = a.createStatement()) {
                s.execute("CALL setv(7)");
            }
            assertThat(one(b, "SELECT @from_procedure")).isNull();
            assertThat(one(a, "SELECT @from_procedure")).isEqualTo("7");
        }
        try (Connection a = proxy.mariadb("ss", ""); Connection b = proxy.mariadb("ss", "")) {
            assertThat(one(a, "SELECT GET_LOCK('ss-lock', 0)")).isEqualTo("1");
            assertThat(one(b, "SELECT GET_LOCK('ss-lock', 0)")).isEqualTo("0");
            assertThat(one(b, "SELECT IS_FREE_LOCK('ss-lock')")).isEqualTo("0");
            assertThat(one(a, "SELECT RELEASE_ALL_LOCKS()")).isEqualTo("1");
            assertThat(one(b, "SELECT GET_LOCK('ss-lock', 0)")).isEqualTo("1");
        }
    }

    @Test
    void lastInsertIdAndResetFollowTheSession() throws Exception {
        try (Connection a = proxy.mariadb("ss", "useResetConnection=true"); Connection b = proxy.mariadb("ss", "")) {
            long idA;
            try (Statement s = a.createStatement()) {
                s.executeUpdate("INSERT INTO t (v) VALUES ('from a')");
                idA = Long.parseLong(one(a, "SELECT LAST_INSERT_ID()"));
            }
            try (Statement s = b.createStatement()) {
                s.executeUpdate("INSERT INTO t (v) VALUES ('from b')");
            }
            assertThat(Long.parseLong(one(b, "SELECT LAST_INSERT_ID()"))).isGreaterThan(idA);
            assertThat(Long.parseLong(one(a, "SELECT LAST_INSERT_ID()"))).isEqualTo(idA);
            assertThat(one(a, "SELECT v FROM t WHERE id = LAST_INSERT_ID()")).isEqualTo("from a");

            try (Statement s = a.createStatement()) {
                s.execute("SET @gone = 'x', time_zone = '+03:00'");
            }
            a.unwrap(org.mariadb.jdbc.Connection.class).reset();
            assertThat(one(a, "SELECT @gone")).isNull();
            assertThat(one(a, "SELECT @@time_zone")).isEqualTo(one(b, "SELECT @@global.time_zone"));
        }
    }

    @Test
    void aDeadlockIsRelayedVerbatimAndCountedAsRetryable() throws Exception {
        try (Connection a = proxy.mariadb("ss", ""); Connection b = proxy.mariadb("ss", "")) {
            a.setAutoCommit(false);
            b.setAutoCommit(false);
            a.createStatement().executeUpdate("UPDATE t SET v = 'a' WHERE id = 1");
            b.createStatement().executeUpdate("UPDATE t SET v = 'b' WHERE id = 2");
            java.util.concurrent.CompletableFuture<Integer> blocked = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
                try {
                    return a.createStatement().executeUpdate("UPDATE t SET v = 'a' WHERE id = 2");
                } catch (SQLException e) {
                    return e.getErrorCode();
                }
            });
            int other;
            try {
                other = b.createStatement().executeUpdate("UPDATE t SET v = 'b' WHERE id = 1");
            } catch (SQLException e) {
                other = e.getErrorCode();
            }
            int first = blocked.get(30, TimeUnit.SECONDS);
            assertThat(List.of(first, other)).as("one of the two transactions is chosen as the deadlock victim").contains(1213);
            a.rollback();
            b.rollback();
        }
        java.net.http.HttpResponse<String> metrics = java.net.http.HttpClient.newHttpClient().send(
                java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://127.0.0.1:" + proxy.adminPort() + "/metrics"))
                        .header("Authorization", "Bearer " + ProxyFixture.ADMIN_TOKEN).build(),
                java.net.http.HttpResponse.BodyHandlers.ofString());
        assertThat(metrics.body()).containsPattern("shardgate_backend_errors_total\\{class=\"RETRYABLE\"} [1-9]");
    }

    @Test
    void cursorFetchKeepsItsConnectionWhileOthersRun() throws Exception {
        try (Connection a = proxy.mysql("ss", "sslMode=DISABLED&useCursorFetch=true&defaultFetchSize=7");
             Connection b = proxy.mariadb("ss", "")) {
            try (PreparedStatement ps = a.prepareStatement("SELECT id, v FROM t WHERE id <= ? ORDER BY id")) {
                ps.setInt(1, 100);
                try (ResultSet r = ps.executeQuery()) {
                    int rows = 0;
                    while (r.next()) {
                        rows++;
                        assertThat(r.getString(2)).isEqualTo("row " + r.getInt(1));
                        if (rows % 10 == 0) {
                            assertThat(one(b, "SELECT COUNT(*) FROM t WHERE id <= 100")).isEqualTo("100");
                        }
                    }
                    assertThat(rows).isEqualTo(100);
                }
            }
        }
    }
}
