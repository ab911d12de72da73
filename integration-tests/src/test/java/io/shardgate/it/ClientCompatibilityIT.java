package io.shardgate.it;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.io.ByteArrayInputStream;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.Date;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Time;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.LocalDateTime;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Real clients through Shardgate in front of one real MariaDB primary. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ClientCompatibilityIT {
    private ProxyFixture proxy;

    @BeforeAll
    void start() {
        proxy = ProxyFixture.withOwnShard(Map.of("max_allowed_packet", "256M"),
                "limits: { max_allowed_packet: 134217728 }\n", "CREATE DATABASE compat");
    }

    @AfterAll
    void stop() {
        if (proxy != null) {
            proxy.close();
        }
    }

    @Test
    void mariadbCli() throws Exception {
        Cli.Result version = Cli.run(Cli.mariadb(proxy.port(), "-e", "SELECT @@version_comment LIMIT 1"), null, 30);
        assertThat(version.status()).as(version.stderr()).isZero();
        assertThat(version.stdout().trim()).isNotEmpty();

        Cli.Result multi = Cli.run(Cli.mariadb(proxy.port(), "-e", "SELECT 1; SELECT 2;"), null, 30);
        assertThat(multi.stdout()).isEqualTo("1\n2\n");

        Cli.Result use = Cli.run(Cli.mariadb(proxy.port()), "use compat\nSELECT DATABASE();\n", 30);
        assertThat(use.stdout()).isEqualTo("compat\n");

        Cli.Result status = Cli.run(Cli.mariadb(proxy.port()), "status\n", 30);
        assertThat(status.status()).as(status.stderr()).isZero();
        assertThat(status.stdout()).contains("Server version:").contains("shardgate").contains("TCP port:\t\t" + proxy.port());
    }

    @Test
    void mariadbConnectorJ() throws Exception {
        try (Connection c = proxy.mariadb("compat", "useServerPrepStmts=true&allowMultiQueries=true")) {
            assertEveryTypeRoundTrips(c, "types_mariadb");
            assertMultiQueries(c);
            assertBatch(c, "batch_mariadb");
        }
    }

    @Test
    void mysqlConnectorJ() throws Exception {
        String options = "sslMode=DISABLED&useServerPrepStmts=true&cachePrepStmts=true&allowMultiQueries=true"
                + "&rewriteBatchedStatements=true&useCursorFetch=true&defaultFetchSize=100";
        try (Connection c = proxy.mysql("compat", options)) {
            assertThat(c.getTransactionIsolation()).isEqualTo(Connection.TRANSACTION_REPEATABLE_READ);
            assertEveryTypeRoundTrips(c, "types_mysql");
            assertMultiQueries(c);
            assertBatch(c, "batch_mysql");
            assertCursorFetch(c);
        }
    }

    @Test
    void twentyMegabyteBlobThroughSendLongData() throws Exception {
        byte[] blob = new byte[20 * 1024 * 1024];
        new Random(7).nextBytes(blob);
        for (String driver : List.of("mariadb", "mysql")) {
            String table = "blob_" + driver;
            try (Connection c = driver.equals("mariadb") ? proxy.mariadb("compat", "useServerPrepStmts=true")
                    : proxy.mysql("compat", "sslMode=DISABLED&useServerPrepStmts=true")) {
                c.createStatement().execute("CREATE TABLE " + table + " (id INT PRIMARY KEY, b LONGBLOB)");
                try (PreparedStatement insert = c.prepareStatement("INSERT INTO " + table + " VALUES (?, ?)")) {
                    insert.setInt(1, 1);
                    insert.setBinaryStream(2, new ByteArrayInputStream(blob), blob.length);
                    assertThat(insert.executeUpdate()).isEqualTo(1);
                }
                try (PreparedStatement select = c.prepareStatement("SELECT b FROM " + table + " WHERE id = ?")) {
                    select.setInt(1, 1);
                    try (ResultSet rows = select.executeQuery()) {
                        assertThat(rows.next()).isTrue();
                        assertThat(rows.getBytes(1)).isEqualTo(blob);
                    }
                }
            }
        }
    }

    @Test
    void pyMySql() throws Exception {
        String script = """
                import pymysql, sys
                c = pymysql.connect(host='127.0.0.1', port=int(sys.argv[1]), user='app', password='app', database='compat', autocommit=True)
                cur = c.cursor()
                cur.execute("CREATE TABLE py (id INT PRIMARY KEY, name VARCHAR(20), big LONGTEXT)")
                cur.execute("INSERT INTO py (id, name) VALUES (%s, %s)", (1, 'one'))
                cur.executemany("INSERT INTO py (id, name) VALUES (%s, %s)", [(i, 'n%d' % i) for i in range(2, 1002)])
                cur.execute("UPDATE py SET name = %s WHERE id = %s", ('uno', 1))
                cur.execute("DELETE FROM py WHERE id > %s", (500,))
                cur.execute("SELECT COUNT(*), MIN(name) FROM py")
                print(cur.fetchone())
                big = 'x' * (50 * 1024 * 1024)
                cur.execute("INSERT INTO py (id, name, big) VALUES (%s, %s, %s)", (9999, 'big', big))
                cur.execute("SELECT big FROM py WHERE id = 9999")
                print(len(cur.fetchone()[0]) == len(big))
                """;
        Cli.Result result = Cli.run(List.of("/usr/bin/python3", "-c", script, Integer.toString(proxy.port())), null, 120);
        assertThat(result.status()).as(result.stderr()).isZero();
        assertThat(result.stdout()).isEqualTo("(500, 'n10')\nTrue\n");
    }

    @Test
    void killQueryStopsTheStatementOfAnotherConnection() throws Exception {
        try (Connection victim = proxy.mariadb("", ""); Connection killer = proxy.mariadb("", "")) {
            // The id from the handshake is Shardgate's own, not the backend's: KILL must map it.
            long proxyId = victim.unwrap(org.mariadb.jdbc.Connection.class).getThreadId();
            try (ResultSet rows = victim.createStatement().executeQuery("SELECT CONNECTION_ID()")) {
                rows.next();
                assertThat(rows.getLong(1)).as("CONNECTION_ID() answers the id KILL takes").isEqualTo(proxyId);
            }
            long start = System.nanoTime();
            CompletableFuture<String> sleeping = CompletableFuture.supplyAsync(() -> {
                try (ResultSet rows = victim.createStatement().executeQuery("SELECT SLEEP(30)")) {
                    rows.next();
                    return rows.getString(1);
                } catch (SQLException e) {
                    return "error " + e.getErrorCode();
                }
            });
            awaitRunning("SELECT SLEEP(30)");
            killer.createStatement().execute("KILL QUERY " + proxyId);
            String outcome = sleeping.get(20, TimeUnit.SECONDS);
            assertThat(TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start)).isLessThan(20);
            assertThat(outcome).isIn("1", "error 1317");
            try (ResultSet rows = victim.createStatement().executeQuery("SELECT 42")) {
                assertThat(rows.next()).isTrue();
                assertThat(rows.getInt(1)).isEqualTo(42);
            }
            assertThatThrownBy(() -> killer.createStatement().execute("KILL QUERY 999999"))
                    .isInstanceOf(SQLException.class).hasMessageContaining("Unknown thread id: 999999");
        }
    }

    /**
     * Waits until a statement shows up in the backend's processlist, read on the backend itself
     * (through the proxy, information_schema.PROCESSLIST lists the proxy's sessions).
     */
    private void awaitRunning(String sql) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < deadline) {
            if (Integer.parseInt(proxy.topology().shard("s0").primary().queryString(
                    "SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE INFO = '" + sql + "'")) > 0) {
                return;
            }
        }
        throw new AssertionError(sql + " never started");
    }

    @Test
    void wrongPasswordGets1045() {
        assertThatThrownBy(() -> java.sql.DriverManager.getConnection(proxy.mariadbUrl("", ""), "app", "wrong"))
                .isInstanceOfSatisfying(SQLException.class, e -> {
                    assertThat(e.getErrorCode()).isEqualTo(1045);
                    assertThat(e.getSQLState()).isEqualTo("28000");
                    assertThat(e.getMessage()).contains("Access denied for user 'app'@'127.0.0.1' (using password: YES)");
                });
    }

    @Test
    void adminApi() throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        String base = "http://127.0.0.1:" + proxy.adminPort();
        assertThat(http.send(HttpRequest.newBuilder(URI.create(base + "/health")).build(),
                HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(200);
        assertThat(http.send(HttpRequest.newBuilder(URI.create(base + "/metrics")).build(),
                HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(401);
        HttpResponse<String> metrics = http.send(HttpRequest.newBuilder(URI.create(base + "/metrics"))
                .header("Authorization", "Bearer " + ProxyFixture.ADMIN_TOKEN).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(metrics.statusCode()).isEqualTo(200);
        assertThat(metrics.body()).contains("shardgate_commands_total{command=\"query\"}")
                .contains("shardgate_client_connections ")
                .containsPattern("shardgate_backend_connections\\{address=\"127\\.0\\.0\\.1:\\d+\",role=\"primary\",shard=\"s0\",state=\"idle\"}")
                .containsPattern("shardgate_backend_served_total\\{address=\"127\\.0\\.0\\.1:\\d+\",role=\"primary\",shard=\"s0\"} [1-9]")
                .contains("shardgate_command_latency_seconds_bucket")
                .contains("shardgate_client_bytes_total{direction=\"in\"}");
    }

    private static void assertEveryTypeRoundTrips(Connection c, String table) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("CREATE TABLE " + table + " (id INT PRIMARY KEY, ti TINYINT, tiu TINYINT UNSIGNED, si SMALLINT,"
                    + " mi MEDIUMINT, i INT, iu INT UNSIGNED, bi BIGINT, biu BIGINT UNSIGNED, d DECIMAL(30,10),"
                    + " f FLOAT, db DOUBLE, dt DATE, tm TIME, dtm DATETIME(6), ts TIMESTAMP(6) NULL, vc VARCHAR(100),"
                    + " tx TEXT, bl BLOB)");
        }
        String insert = "INSERT INTO " + table + " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)";
        LocalDateTime when = LocalDateTime.of(2024, 2, 29, 13, 14, 15, 123456000);
        try (PreparedStatement ps = c.prepareStatement(insert)) {
            ps.setInt(1, 1);
            ps.setByte(2, (byte) -128);
            ps.setInt(3, 255);
            ps.setShort(4, (short) -32768);
            ps.setInt(5, 8388607);
            ps.setInt(6, Integer.MIN_VALUE);
            ps.setLong(7, 4294967295L);
            ps.setLong(8, Long.MIN_VALUE);
            ps.setBigDecimal(9, new BigDecimal(new BigInteger("18446744073709551615")));
            ps.setBigDecimal(10, new BigDecimal("12345678901234567890.0123456789"));
            ps.setFloat(11, 1.5f);
            ps.setDouble(12, Math.PI);
            ps.setDate(13, Date.valueOf("2024-02-29"));
            ps.setTime(14, Time.valueOf("23:59:58"));
            ps.setTimestamp(15, Timestamp.valueOf(when));
            ps.setTimestamp(16, Timestamp.valueOf(when));
            ps.setString(17, "héllo 😀");
            ps.setString(18, "text ".repeat(1000));
            ps.setBytes(19, new byte[] {0, 1, 2, (byte) 0xFF});
            assertThat(ps.executeUpdate()).isEqualTo(1);
            ps.setInt(1, 2);
            for (int i = 2; i <= 19; i++) {
                ps.setNull(i, Types.NULL);
            }
            assertThat(ps.executeUpdate()).isEqualTo(1);
        }
        try (PreparedStatement ps = c.prepareStatement("SELECT * FROM " + table + " WHERE id = ?")) {
            ps.setInt(1, 1);
            try (ResultSet r = ps.executeQuery()) {
                assertThat(r.next()).isTrue();
                assertThat(r.getByte(2)).isEqualTo((byte) -128);
                assertThat(r.getInt(3)).isEqualTo(255);
                assertThat(r.getShort(4)).isEqualTo((short) -32768);
                assertThat(r.getInt(5)).isEqualTo(8388607);
                assertThat(r.getInt(6)).isEqualTo(Integer.MIN_VALUE);
                assertThat(r.getLong(7)).isEqualTo(4294967295L);
                assertThat(r.getLong(8)).isEqualTo(Long.MIN_VALUE);
                assertThat(r.getBigDecimal(9)).isEqualByComparingTo("18446744073709551615");
                assertThat(r.getBigDecimal(10)).isEqualByComparingTo("12345678901234567890.0123456789");
                assertThat(r.getFloat(11)).isEqualTo(1.5f);
                assertThat(r.getDouble(12)).isEqualTo(Math.PI);
                assertThat(r.getDate(13)).isEqualTo(Date.valueOf("2024-02-29"));
                assertThat(r.getTime(14)).isEqualTo(Time.valueOf("23:59:58"));
                assertThat(r.getTimestamp(15).toLocalDateTime()).isEqualTo(when);
                assertThat(r.getTimestamp(16).toLocalDateTime()).isEqualTo(when);
                assertThat(r.getString(17)).isEqualTo("héllo 😀");
                assertThat(r.getString(18)).hasSize(5000);
                assertThat(r.getBytes(19)).containsExactly(0, 1, 2, 0xFF);
            }
            ps.setInt(1, 2);
            try (ResultSet r = ps.executeQuery()) {
                assertThat(r.next()).isTrue();
                for (int i = 2; i <= 19; i++) {
                    assertThat(r.getObject(i)).as("column " + i + " is NULL").isNull();
                }
            }
        }
    }

    private static void assertMultiQueries(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            assertThat(s.execute("SELECT 1; SELECT 2, 3; DO 1")).isTrue();
            try (ResultSet first = s.getResultSet()) {
                first.next();
                assertThat(first.getInt(1)).isEqualTo(1);
            }
            assertThat(s.getMoreResults()).isTrue();
            try (ResultSet second = s.getResultSet()) {
                second.next();
                assertThat(second.getInt(2)).isEqualTo(3);
            }
            assertThat(s.getMoreResults()).isFalse();
        }
    }

    private static void assertBatch(Connection c, String table) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("CREATE TABLE " + table + " (id INT PRIMARY KEY, v VARCHAR(20))");
        }
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO " + table + " VALUES (?, ?)")) {
            for (int i = 0; i < 10_000; i++) {
                ps.setInt(1, i);
                ps.setString(2, "row " + i);
                ps.addBatch();
            }
            int[] counts = ps.executeBatch();
            assertThat(counts).hasSize(10_000);
        }
        try (ResultSet r = c.createStatement().executeQuery("SELECT COUNT(*), SUM(id) FROM " + table)) {
            r.next();
            assertThat(r.getLong(1)).isEqualTo(10_000);
            assertThat(r.getLong(2)).isEqualTo(49_995_000L);
        }
    }

    private static void assertCursorFetch(Connection c) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT id FROM batch_mysql WHERE id >= ? ORDER BY id")) {
            ps.setFetchSize(100);
            ps.setInt(1, 0);
            long count = 0;
            long sum = 0;
            try (ResultSet r = ps.executeQuery()) {
                while (r.next()) {
                    count++;
                    sum += r.getInt(1);
                }
            }
            assertThat(count).isEqualTo(10_000);
            assertThat(sum).isEqualTo(49_995_000L);
        }
    }

    static String utf8(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
