package io.shardgate.it;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * SHOW PROCESSLIST and information_schema.PROCESSLIST through Shardgate list Shardgate's own
 * client sessions, with the ids CONNECTION_ID() answers and KILL takes, and the columns MariaDB
 * 10.11 itself returns (compared with the backend's own answer); as drivers' own test suites use
 * them: MariaDB Connector/J, MySQL Connector/J and PyMySQL.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ProcessListIT {
    private ProxyFixture proxy;

    @BeforeAll
    void start() {
        proxy = ProxyFixture.withOwnShard(Map.of(), "", "CREATE DATABASE pl");
    }

    @AfterAll
    void stop() {
        if (proxy != null) {
            proxy.close();
        }
    }

    /**
     * Column name, JDBC type name, precision and scale of each column; a TEXT or BLOB without its
     * length (MariaDB gives information_schema's INFO a length no declared type has: 196605 characters).
     */
    private static List<String> columns(ResultSet rows) throws SQLException {
        ResultSetMetaData meta = rows.getMetaData();
        List<String> columns = new ArrayList<>();
        for (int i = 1; i <= meta.getColumnCount(); i++) {
            boolean lob = meta.getColumnTypeName(i).endsWith("TEXT") || meta.getColumnTypeName(i).endsWith("BLOB");
            columns.add(meta.getColumnLabel(i) + " " + meta.getColumnTypeName(i)
                    + (lob ? "" : "(" + meta.getPrecision(i) + "," + meta.getScale(i) + ")"));
        }
        return columns;
    }

    private List<String> backendColumns(String sql) throws SQLException {
        try (Connection direct = proxy.topology().shard("s0").primary().connect(); Statement s = direct.createStatement();
             ResultSet rows = s.executeQuery(sql)) {
            return columns(rows);
        }
    }

    private static long one(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rows = s.executeQuery(sql)) {
            assertThat(rows.next()).as(sql).isTrue();
            return rows.getLong(1);
        }
    }

    @Test
    void mariadbConnectorJSeesProxySessionsWithTheServersColumns() throws Exception {
        try (Connection c = proxy.mariadb("pl", ""); Connection other = proxy.mariadb("", "")) {
            long id = c.unwrap(org.mariadb.jdbc.Connection.class).getThreadId();
            long otherId = other.unwrap(org.mariadb.jdbc.Connection.class).getThreadId();
            awaitSleeping(c, otherId);
            for (String show : List.of("SHOW PROCESSLIST", "SHOW FULL PROCESSLIST")) {
                try (Statement s = c.createStatement(); ResultSet rows = s.executeQuery(show)) {
                    assertThat(columns(rows)).as(show).isEqualTo(backendColumns(show));
                    List<String> seen = new ArrayList<>();
                    while (rows.next()) {
                        if (rows.getLong("Id") != id && rows.getLong("Id") != otherId) {
                            continue; // a session of an earlier test, closing
                        }
                        seen.add(rows.getLong("Id") + " " + rows.getString("User") + " " + rows.getString("db") + " "
                                + rows.getString("Command") + " " + rows.getString("Info"));
                        assertThat(rows.getString("Host")).startsWith("127.0.0.1:");
                    }
                    assertThat(seen).as(show).containsExactly(id + " app pl Query " + show, otherId + " app null Sleep null");
                }
            }
            String selectAll = "SELECT * FROM information_schema.PROCESSLIST";
            try (Statement s = c.createStatement(); ResultSet rows = s.executeQuery(selectAll + " WHERE ID IN (" + id + ", " + otherId + ") ORDER BY ID")) {
                assertThat(columns(rows)).isEqualTo(backendColumns(selectAll));
                assertThat(rows.next()).isTrue();
                assertThat(rows.getLong("ID")).isEqualTo(id);
                assertThat(rows.getString("STATE")).isEqualTo("Filling schema table");
                assertThat(rows.getString("INFO")).startsWith(selectAll + " WHERE ID IN");
                assertThat(rows.next()).isTrue();
                assertThat(rows.getLong("ID")).isEqualTo(otherId);
                assertThat(rows.getString("COMMAND")).isEqualTo("Sleep");
                assertThat(rows.next()).isFalse();
            }
            assertThat(one(c, "SELECT ID FROM information_schema.PROCESSLIST WHERE ID = CONNECTION_ID()")).isEqualTo(id);
            assertThat(one(c, "SELECT COUNT(*) FROM information_schema.processlist p WHERE p.ID = " + otherId + " AND p.INFO IS NULL")).isEqualTo(1);
            assertKillFoundThroughTheList(c, other, otherId);
        }
    }

    @Test
    void mysqlConnectorJFindsItsConnectionAndKillsAnother() throws Exception {
        try (Connection c = proxy.mysql("pl", "sslMode=DISABLED"); Connection victim = proxy.mysql("pl", "sslMode=DISABLED")) {
            long id = c.unwrap(com.mysql.cj.jdbc.JdbcConnection.class).getId();
            long victimId = victim.unwrap(com.mysql.cj.jdbc.JdbcConnection.class).getId();
            assertThat(one(c, "SELECT CONNECTION_ID()")).isEqualTo(id);
            String select = "SELECT ID, USER, HOST, DB, COMMAND, TIME, STATE, INFO FROM information_schema.PROCESSLIST WHERE ID = " + id;
            try (Statement s = c.createStatement(); ResultSet rows = s.executeQuery(select)) {
                assertThat(rows.next()).isTrue();
                assertThat(rows.getString("DB")).isEqualTo("pl");
                assertThat(rows.getString("INFO")).isEqualTo(select);
                assertThat(rows.next()).isFalse();
            }
            try (Statement s = c.createStatement(); ResultSet rows = s.executeQuery("SHOW PROCESSLIST")) {
                List<Long> ids = new ArrayList<>();
                while (rows.next()) {
                    ids.add(rows.getLong(1));
                }
                assertThat(ids).contains(id, victimId);
            }
            assertKillFoundThroughTheList(c, victim, victimId);
        }
        // Server-side prepared: refused at PREPARE (a backend would list its own threads); the driver then prepares it itself.
        try (Connection p = proxy.mysql("pl", "sslMode=DISABLED&useServerPrepStmts=true");
             java.sql.PreparedStatement select = p.prepareStatement("SELECT ID FROM information_schema.PROCESSLIST WHERE ID = ?")) {
            long id = p.unwrap(com.mysql.cj.jdbc.JdbcConnection.class).getId();
            select.setLong(1, id);
            try (ResultSet rows = select.executeQuery()) {
                assertThat(rows.next()).isTrue();
                assertThat(rows.getLong(1)).isEqualTo(id);
            }
        }
    }

    /** Waits until session {@code id} is between commands (a driver's connect may still be finishing). */
    private static void awaitSleeping(Connection c, long id) throws SQLException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (one(c, "SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE COMMAND = 'Sleep' AND ID = " + id) == 0
                && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
    }

    /**
     * {@code victim} runs a long SLEEP; {@code killer} finds it by its statement in the process list,
     * KILL QUERY ends the statement (the session lives on), KILL CONNECTION ends the session.
     */
    private static void assertKillFoundThroughTheList(Connection killer, Connection victim, long victimId) throws Exception {
        CompletableFuture<String> sleeping = CompletableFuture.supplyAsync(() -> {
            try (Statement s = victim.createStatement(); ResultSet rows = s.executeQuery("SELECT SLEEP(30) /* pl-victim */")) {
                rows.next();
                return rows.getString(1);
            } catch (SQLException e) {
                return "error " + e.getErrorCode();
            }
        });
        long found = -1;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (found < 0 && System.nanoTime() < deadline) {
            try (Statement s = killer.createStatement(); ResultSet rows = s.executeQuery(
                    "SELECT ID, COMMAND FROM information_schema.PROCESSLIST WHERE INFO LIKE '%pl-victim%' AND ID <> CONNECTION_ID()")) {
                if (rows.next()) {
                    assertThat(rows.getString("COMMAND")).isEqualTo("Query");
                    found = rows.getLong("ID");
                }
            }
        }
        assertThat(found).as("the sleeping session's id in the list").isEqualTo(victimId);
        // The proxy lists the statement before the backend may have started it: KILL QUERY until it ends.
        while (!sleeping.isDone() && System.nanoTime() < deadline) {
            killer.createStatement().execute("KILL QUERY " + found);
            try {
                sleeping.get(300, TimeUnit.MILLISECONDS);
            } catch (java.util.concurrent.TimeoutException e) {
                // not on a backend yet: kill again
            }
        }
        assertThat(sleeping.get(1, TimeUnit.SECONDS)).isIn("1", "error 1317");
        assertThat(one(victim, "SELECT 42")).isEqualTo(42);
        killer.createStatement().execute("KILL CONNECTION " + found);
        long gone = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (one(killer, "SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE ID = " + found) != 0 && System.nanoTime() < gone) {
            Thread.onSpinWait();
        }
        assertThat(one(killer, "SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE ID = " + found)).isZero();
        assertThat(victim.isValid(2)).isFalse();
    }

    @Test
    void pymysqlThreadIdShowProcesslistAndKill() throws Exception {
        String script = """
                import sys, threading, pymysql
                port = int(sys.argv[1])
                def connect():
                    return pymysql.connect(host='127.0.0.1', port=port, user='app', password='app', database='pl')
                me, victim = connect(), connect()
                cur = me.cursor()
                cur.execute("SHOW PROCESSLIST")
                ids = [row[0] for row in cur.fetchall()]
                print(me.thread_id() in ids and victim.thread_id() in ids)
                cur.execute("SELECT ID FROM information_schema.PROCESSLIST WHERE ID = CONNECTION_ID()")
                print(cur.fetchone()[0] == me.thread_id())
                me.kill(victim.thread_id())
                try:
                    victim.cursor().execute("SELECT 1")
                    print("alive")
                except pymysql.err.MySQLError as e:
                    print("gone")
                for attempt in range(500):
                    cur.execute("SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE ID = %s", (victim.thread_id(),))
                    left = cur.fetchone()[0]
                    if left == 0:
                        break
                print(left)
                """;
        Cli.Result result = Cli.run(List.of("/usr/bin/python3", "-c", script, Integer.toString(proxy.port())), null, 60);
        assertThat(result.status()).as(result.stderr()).isZero();
        assertThat(result.stdout()).isEqualTo("True\nTrue\ngone\n0\n");
    }
}
