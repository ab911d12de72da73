package io.shardgate.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.shardgate.storage.Engine;
import io.shardgate.replication.topology.Node;
import io.shardgate.replication.topology.Topology;
import io.shardgate.replication.topology.TopologySpec;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Read/write split on one primary and two replicas with real GTID replication: where statements
 * land (by @@server_id), replicas leaving and rejoining rotation by measured lag, causal reads in a
 * session and across sessions with a token, and faults (a replica killed under load, the primary
 * restarting).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ReadWriteSplitIT {
    private static final int PRIMARY_ID = 1;
    private Topology topology;
    private ProxyFixture proxy;
    private Node primary;
    private Node r1;
    private Node r2;
    private Writer writer;

    @BeforeAll
    void start() {
        topology = Topology.start(TopologySpec.builder().shard("s0", Engine.INNODB, 2).build());
        primary = topology.shard("s0").primary();
        r1 = topology.shard("s0").replica(0);
        r2 = topology.shard("s0").replica(1);
        primary.execute("CREATE DATABASE rw", "CREATE TABLE rw.t (id INT PRIMARY KEY, v VARCHAR(40), written_on INT)",
                "CREATE TABLE rw.beat (id BIGINT AUTO_INCREMENT PRIMARY KEY, at TIMESTAMP(6))");
        proxy = ProxyFixture.start(topology, "routing: { max_replica_lag_ms: 1000, causal_reads: token }\n"
                + "limits: { backend_connect_timeout_ms: 500 }\n");
        awaitCaughtUp();
    }

    @AfterEach
    void stopWriter() throws InterruptedException {
        if (writer != null) {
            writer.close();
            writer = null;
        }
    }

    @AfterAll
    void stop() {
        ProxyFixture.stop(proxy, topology);
    }

    private void awaitCaughtUp() {
        String position = primary.gtidBinlogPos();
        for (Node replica : List.of(r1, r2)) {
            assertThat(replica.awaitGtid(position, java.time.Duration.ofSeconds(30))).as("%s caught up", replica).isTrue();
        }
    }

    private static int serverId(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet r = s.executeQuery(sql)) {
            assertThat(r.next()).isTrue();
            return r.getInt(1);
        }
    }

    private static int replicaId(Node node) {
        return node.serverId();
    }

    /** A row written through the primary directly every 10 ms, so a replica that stops applying falls behind. */
    private final class Writer implements AutoCloseable {
        private final AtomicBoolean running = new AtomicBoolean(true);
        private final Thread thread;

        Writer() {
            thread = new Thread(() -> {
                try (Connection c = primary.connect(); Statement s = c.createStatement()) {
                    while (running.get()) {
                        s.executeUpdate("INSERT INTO rw.beat (at) VALUES (NOW(6))");
                        Thread.sleep(10); // the write rate, not a synchronisation
                    }
                } catch (SQLException | InterruptedException e) {
                    if (running.get()) {
                        throw new IllegalStateException(e);
                    }
                }
            }, "beat-writer");
            thread.start();
        }

        @Override
        public void close() throws InterruptedException {
            running.set(false);
            thread.join(5000);
        }
    }

    private JsonNode replicasApi() throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + proxy.adminPort() + "/api/v1/replicas"))
                .header("Authorization", "Bearer " + ProxyFixture.ADMIN_TOKEN).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(200);
        return new ObjectMapper().readTree(response.body());
    }

    @Test
    @Order(1)
    void readsGoToReplicasWritesAndTransactionsToThePrimary() throws Exception {
        try (Connection c = proxy.mariadb("rw", "")) {
            Set<Integer> seen = new HashSet<>();
            for (int i = 0; i < 40; i++) {
                seen.add(serverId(c, "SELECT @@server_id"));
            }
            assertThat(seen).containsExactlyInAnyOrder(replicaId(r1), replicaId(r2));

            try (Statement s = c.createStatement()) {
                s.executeUpdate("INSERT INTO t VALUES (1, 'autocommit', @@server_id)");
                assertThat(serverId(c, "SELECT written_on FROM t WHERE id = 1 FOR UPDATE")).isEqualTo(PRIMARY_ID);
                assertThat(serverId(c, "/*+ shardgate primary */ SELECT @@server_id")).isEqualTo(PRIMARY_ID);

                c.setAutoCommit(false);
                assertThat(serverId(c, "SELECT @@server_id")).isEqualTo(PRIMARY_ID);
                s.executeUpdate("INSERT INTO t VALUES (2, 'in a transaction', @@server_id)");
                assertThat(serverId(c, "SELECT @@server_id")).isEqualTo(PRIMARY_ID);
                c.commit();
                c.setAutoCommit(true);

                s.execute("START TRANSACTION READ ONLY");
                int readOnlyOn = serverId(c, "SELECT @@server_id");
                assertThat(readOnlyOn).isIn(replicaId(r1), replicaId(r2));
                for (int i = 0; i < 5; i++) {
                    assertThat(serverId(c, "SELECT @@server_id")).isEqualTo(readOnlyOn);
                }
                s.execute("COMMIT");

                s.execute("SET TRANSACTION READ ONLY");
                s.execute("START TRANSACTION");
                assertThat(serverId(c, "SELECT @@server_id")).isIn(replicaId(r1), replicaId(r2));
                assertThatThrownBy(() -> s.executeUpdate("INSERT INTO t VALUES (3, 'not allowed', 0)"))
                        .hasMessageContaining("READ ONLY");
                s.execute("COMMIT");
            }
            try (Statement s = c.createStatement()) {
                s.execute("CREATE TEMPORARY TABLE scratch (x INT)");
                for (int i = 0; i < 5; i++) {
                    assertThat(serverId(c, "SELECT @@server_id")).as("with a temporary table open").isEqualTo(PRIMARY_ID);
                }
                s.execute("DROP TEMPORARY TABLE scratch");
                Set<Integer> after = new HashSet<>();
                for (int i = 0; i < 10; i++) {
                    after.add(serverId(c, "SELECT @@server_id"));
                }
                assertThat(after).as("after the temporary table is dropped").doesNotContain(PRIMARY_ID);
            }
            try (Statement s = c.createStatement()) {
                // Warnings live on the connection that ran the statement: SHOW WARNINGS must reach it.
                s.executeQuery("SELECT 1 + 'abc'").close();
                assertThat(warningCodes(s)).containsExactly(1292);
                s.executeUpdate("INSERT IGNORE INTO t VALUES (1, 'duplicate', 0)");
                assertThat(warningCodes(s)).containsExactly(1062);
                // A write right after a replica read with warnings still goes to the primary.
                s.executeQuery("SELECT 1 + 'abc'").close();
                s.executeUpdate("INSERT INTO t VALUES (4, 'after a warning', @@server_id)");
                assertThat(serverId(c, "SELECT written_on FROM t WHERE id = 4 FOR UPDATE")).isEqualTo(PRIMARY_ID);
            }
            try (Connection p = proxy.mariadb("rw", "useServerPrepStmts=true");
                 java.sql.PreparedStatement read = p.prepareStatement("SELECT @@server_id, ? FROM DUAL");
                 java.sql.PreparedStatement write = p.prepareStatement("INSERT INTO t VALUES (?, 'prepared', @@server_id)")) {
                // Server-side prepared statements route per execution, by their statement's class.
                Set<Integer> readOn = new HashSet<>();
                for (int i = 0; i < 20; i++) {
                    read.setInt(1, i);
                    try (ResultSet r = read.executeQuery()) {
                        assertThat(r.next()).isTrue();
                        readOn.add(r.getInt(1));
                        assertThat(r.getInt(2)).isEqualTo(i);
                    }
                }
                assertThat(readOn).containsExactlyInAnyOrder(replicaId(r1), replicaId(r2));
                write.setInt(1, 8);
                assertThat(write.executeUpdate()).isEqualTo(1);
                assertThat(serverId(c, "SELECT written_on FROM t WHERE id = 8 FOR UPDATE")).isEqualTo(PRIMARY_ID);
            }
            try (Statement s = c.createStatement(); ResultSet r = s.executeQuery("SHOW SHARDGATE BACKENDS")) {
                Map<String, Long> served = new HashMap<>();
                while (r.next()) {
                    served.put(r.getString("role") + " " + r.getString("address"), r.getLong("served"));
                }
                assertThat(served).hasSize(3);
                assertThat(served).containsKey("primary " + primary.address());
                assertThat(served.get("replica " + r1.address())).isPositive();
                assertThat(served.get("replica " + r2.address())).isPositive();
            }
        }
    }

    private static List<Integer> warningCodes(Statement s) throws SQLException {
        List<Integer> codes = new ArrayList<>();
        try (ResultSet r = s.executeQuery("SHOW WARNINGS")) {
            while (r.next()) {
                codes.add(r.getInt("Code"));
            }
        }
        return codes;
    }

    /** Reads with a 500 ms budget until {@code until}; returns the times (ms after start) a read landed on {@code node}. */
    private List<Long> readsOn(Connection c, Node node, long startNanos, long untilMs) throws SQLException {
        List<Long> times = new ArrayList<>();
        while ((System.nanoTime() - startNanos) / 1_000_000 < untilMs) {
            long before = (System.nanoTime() - startNanos) / 1_000_000;
            if (serverId(c, "/*+ shardgate max_lag_ms=500 */ SELECT @@server_id") == node.serverId()) {
                times.add(before);
            }
        }
        return times;
    }

    private void awaitBackInRotation(Connection c, Node node) throws SQLException {
        long deadline = System.nanoTime() + 15_000_000_000L;
        while (System.nanoTime() < deadline) {
            if (serverId(c, "/*+ shardgate max_lag_ms=500 */ SELECT @@server_id") == node.serverId()) {
                return;
            }
        }
        try {
            throw new AssertionError(node + " did not come back into rotation within 15 s; replicas: " + replicasApi());
        } catch (AssertionError e) {
            throw e;
        } catch (Exception e) {
            throw new AssertionError(node + " did not come back into rotation within 15 s", e);
        }
    }

    @Test
    @Order(1)
    void shardsApiShowsEachBackendsEngineHealthAndCapabilities() throws Exception {
        long deadline = System.nanoTime() + 10_000_000_000L;
        JsonNode shards = shardsApi();
        while (System.nanoTime() < deadline && shards.findValuesAsText("health").stream().filter("OK"::equals).count() < 3) {
            Thread.sleep(100); // the health probe runs every second
            shards = shardsApi();
        }
        assertThat(shards).hasSize(3);
        for (JsonNode backend : shards) {
            assertThat(backend.get("engine").asText()).isEqualTo("innodb");
            assertThat(backend.get("health").asText()).as(backend.toString()).isEqualTo("OK");
            assertThat(backend.get("capabilities").isObject()).as(backend.toString()).isTrue();
        }
        assertThat(shards.get(0).get("role").asText()).isEqualTo("primary");
        // A shard whose server lacks its engine does not start.
        String yaml = "users: [ { name: app, password: app } ]\nbackend_user: { name: "
                + topology.accounts().user() + ", password: \"" + topology.accounts().password() + "\" }\n"
                + "shards: [ { name: s0, engine: rocksdb, primary: \"" + primary.address() + "\" } ]\nlisten: { port: 0 }\n"
                + "admin: { port: 0, token: long-enough-token }\n";
        // Started from the packaged jar, as ./shardgate run does: it prints the refusal and exits 1.
        assertThatThrownBy(() -> JarProxy.start(yaml).close())
                .hasMessageContaining("s0").hasMessageContainingAll("ROCKSDB");
    }

    private JsonNode shardsApi() throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + proxy.adminPort() + "/shards"))
                .header("Authorization", "Bearer " + ProxyFixture.ADMIN_TOKEN).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).isEqualTo(200);
        return new ObjectMapper().readTree(response.body());
    }

    @Test
    @Order(2)
    void aReplicaWithItsSqlThreadStoppedLeavesRotationAndReturns() throws Exception {
        writer = new Writer();
        try (Connection c = proxy.mariadb("rw", "")) {
            awaitBackInRotation(c, r1);
            r1.stopSqlThread();
            long stopped = System.nanoTime();
            List<Long> onR1 = readsOn(c, r1, stopped, 2500);
            // Staleness passes 500 ms about 500 ms after the stop; the replica must be out 1 s after that.
            assertThat(onR1).as("reads served by the stopped replica, ms after the stop").allMatch(t -> t < 1500);
            JsonNode status = replicasApi();
            assertThat(status.toString()).contains("SQL_THREAD_STOPPED");
            r1.startSqlThread();
            awaitBackInRotation(c, r1);
        }
    }

    @Test
    @Order(3)
    void aReplicaBlockedByALockLeavesRotationAndReturns() throws Exception {
        writer = new Writer();
        try (Connection c = proxy.mariadb("rw", "")) {
            awaitBackInRotation(c, r2);
            List<Long> onR2;
            try (Node.Block block = r2.blockWithReadLock()) {
                long blocked = System.nanoTime();
                onR2 = readsOn(c, r2, blocked, 2500);
            }
            assertThat(onR2).as("reads served by the blocked replica, ms after the block").allMatch(t -> t < 1500);
            awaitBackInRotation(c, r2);
        }
    }

    @Test
    @Order(4)
    void aZeroBudgetReadGoesToThePrimaryOrACaughtUpReplica() throws Exception {
        awaitCaughtUp();
        try (Connection c = proxy.mariadb("rw", "")) {
            // With no writes in flight both replicas have applied everything: lag exactly 0 qualifies.
            long deadline = System.nanoTime() + 10_000_000_000L;
            boolean replicaServed = false;
            while (!replicaServed && System.nanoTime() < deadline) {
                replicaServed = serverId(c, "/*+ shardgate max_lag_ms=0 */ SELECT @@server_id") != PRIMARY_ID;
            }
            assertThat(replicaServed).as("a caught-up replica served a max_lag_ms=0 read; replicas: %s", replicasApi()).isTrue();
            // With a replica stopped behind a write, it no longer qualifies; the other or the primary answers.
            r1.stopSqlThread();
            try (Statement s = c.createStatement()) {
                s.executeUpdate("INSERT INTO t VALUES (10, 'zero budget', 0)");
            }
            for (int i = 0; i < 20; i++) {
                try (Statement s = c.createStatement();
                     ResultSet r = s.executeQuery("/*+ shardgate max_lag_ms=0 */ SELECT @@server_id, COUNT(*) FROM t WHERE id = 10")) {
                    assertThat(r.next()).isTrue();
                    assertThat(r.getInt(1)).isNotEqualTo(r1.serverId());
                    assertThat(r.getInt(2)).isEqualTo(1);
                }
            }
            r1.startSqlThread();
        }
    }

    @Test
    @Order(5)
    void sessionCausalReadsSeeTheirOwnWritesDespiteALaggingReplica() throws Exception {
        awaitCaughtUp();
        writer = new Writer();
        int onReplicas = 0;
        try (Connection c = proxy.mariadb("rw", ""); Node.Block lagging = r1.blockWithReadLock()) {
            for (int i = 0; i < 1000; i++) {
                int id = 1000 + i;
                try (Statement s = c.createStatement()) {
                    s.executeUpdate("INSERT INTO t VALUES (" + id + ", 'pair " + i + "', 0)");
                    try (ResultSet r = s.executeQuery("SELECT v, @@server_id FROM t WHERE id = " + id)) {
                        assertThat(r.next()).as("pair %d sees its own row", i).isTrue();
                        assertThat(r.getString(1)).isEqualTo("pair " + i);
                        if (r.getInt(2) != PRIMARY_ID) {
                            onReplicas++;
                        }
                        assertThat(r.getInt(2)).isNotEqualTo(r1.serverId());
                    }
                }
            }
        }
        System.out.println("ReadWriteSplitIT causal pairs: " + onReplicas + " of 1000 reads served by a replica");
        assertThat(onReplicas).as("reads served by the healthy replica").isPositive();
    }

    @Test
    @Order(6)
    void aTokenCarriesAWriteToAnotherConnection() throws Exception {
        awaitCaughtUp();
        r1.stopSqlThread();
        r2.stopSqlThread();
        try (Connection a = proxy.mariadb("rw", ""); Connection b = proxy.mariadb("rw", "")) {
            try (Statement s = a.createStatement()) {
                s.executeUpdate("INSERT INTO t VALUES (5000, 'written by a', 0)");
            }
            String token;
            try (Statement s = a.createStatement(); ResultSet r = s.executeQuery("SELECT @@shardgate_causal_token")) {
                assertThat(r.next()).isTrue();
                token = r.getString(1);
            }
            assertThat(token).startsWith("sg1:mariadb:0-1-");
            String read = "/*+ shardgate max_lag_ms=600000 */ SELECT COUNT(*) FROM t WHERE id = 5000";
            // The control: without the token, b reads a replica that has not applied a's write.
            assertThat(serverId(b, read)).isZero();
            try (Statement s = b.createStatement()) {
                s.execute("SET @@session.shardgate_causal_token = '" + token + "'");
            }
            assertThat(serverId(b, read)).isEqualTo(1);
            try (Statement s = b.createStatement()) {
                assertThatThrownBy(() -> s.execute("SET @@session.shardgate_causal_token = 'nonsense'"))
                        .hasMessageContaining("shardgate_causal_token");
            }
        } finally {
            r1.startSqlThread();
            r2.startSqlThread();
        }
    }

    @Test
    @Order(6)
    void withFallbackErrorAReadNoReplicaFitsGetsAClearError() throws Exception {
        awaitCaughtUp();
        try (ProxyFixture strict = ProxyFixture.start(topology, "routing: { max_replica_lag_ms: 100, fallback: error }\n");
             Connection c = strict.mariadb("rw", "")) {
            assertThat(serverId(c, "SELECT @@server_id")).isIn(r1.serverId(), r2.serverId());
            r1.stopSqlThread();
            r2.stopSqlThread();
            try {
                writer = new Writer();
                long deadline = System.nanoTime() + 10_000_000_000L;
                SQLException refused = null;
                while (refused == null && System.nanoTime() < deadline) {
                    try {
                        serverId(c, "SELECT @@server_id");
                    } catch (SQLException e) {
                        refused = e;
                    }
                }
                assertThat((Object) refused).as("a read with no replica within 100 ms is refused").isNotNull();
                assertThat(refused.getErrorCode()).isEqualTo(1429);
                assertThat(refused.getMessage()).contains("No replica of shard s0 is within the read's freshness budget of 100 ms");
                // Writes, and reads that need the primary, are unaffected.
                assertThat(serverId(c, "/*+ shardgate primary */ SELECT @@server_id")).isEqualTo(PRIMARY_ID);
            } finally {
                r1.startSqlThread();
                r2.startSqlThread();
            }
        }
    }

    private static long sysbenchErrors(String output) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("errors:\\s+(\\d+)").matcher(output);
        assertThat(m.find()).as("sysbench printed its error count:\n%s", output).isTrue();
        return Long.parseLong(m.group(1));
    }

    private List<String> sysbench(String test, String command, String... extra) {
        List<String> args = new ArrayList<>(List.of("sysbench", test, "--db-driver=mysql", "--mysql-host=127.0.0.1",
                "--mysql-port=" + proxy.port(), "--mysql-user=" + ProxyFixture.USER, "--mysql-password=" + ProxyFixture.PASSWORD,
                "--mysql-db=sb", "--tables=1", "--table-size=10000", "--report-interval=0"));
        args.addAll(List.of(extra));
        args.add(command);
        return args;
    }

    @Test
    @Order(7)
    void readsSpreadEvenlyAndSurviveAReplicaKilledMidRun() throws Exception {
        primary.execute("CREATE DATABASE sb");
        Cli.Result prepare = Cli.run(sysbench("oltp_read_only", "prepare"), null, 120);
        assertThat(prepare.status()).as(prepare.stderr()).isZero();
        awaitCaughtUp();
        Map<String, Long> before = servedByAddress();
        Cli.Result even = Cli.run(sysbench("oltp_read_only", "run", "--threads=4", "--time=8", "--skip_trx=on"), null, 60);
        assertThat(even.status()).as(even.stderr()).isZero();
        long onR1 = servedByAddress().get(r1.address()) - before.get(r1.address());
        long onR2 = servedByAddress().get(r2.address()) - before.get(r2.address());
        System.out.println("ReadWriteSplitIT oltp_read_only --skip_trx=on: replica1 served " + onR1 + ", replica2 " + onR2);
        assertThat(Math.abs(onR1 - onR2)).as("replica counts within 30%% (%d vs %d)", onR1, onR2)
                .isLessThanOrEqualTo((long) (0.3 * Math.max(onR1, onR2)));

        AtomicLong killedAt = new AtomicLong();
        Thread killer = new Thread(() -> {
            try {
                Thread.sleep(4000); // a moment in the middle of the run, not a synchronisation
                killedAt.set(System.nanoTime());
                r1.kill();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        killer.start();
        Cli.Result run = Cli.run(sysbench("oltp_read_only", "run", "--threads=16", "--time=12", "--skip_trx=on"), null, 90);
        killer.join();
        assertThat(killedAt.get()).isNotZero();
        assertThat(run.status()).as(run.stdout() + run.stderr()).isZero();
        assertThat(sysbenchErrors(run.stdout())).as(run.stdout()).isZero();
        r1.restart();
        awaitCaughtUp();
    }

    private Map<String, Long> servedByAddress() throws SQLException {
        Map<String, Long> served = new HashMap<>();
        try (Connection c = proxy.mariadb("rw", ""); Statement s = c.createStatement();
             ResultSet r = s.executeQuery("SHOW SHARDGATE BACKENDS")) {
            while (r.next()) {
                served.put(r.getString("address"), r.getLong("served"));
            }
        }
        return served;
    }

    @Test
    @Order(8)
    void writesFailFastWhileThePrimaryIsDownAndReadsGoOn() throws Exception {
        try (Connection c = proxy.mariadb("rw", "")) {
            primary.stop();
            try {
                for (int i = 0; i < 5; i++) {
                    long start = System.nanoTime();
                    int id = 6000 + i;
                    assertThatThrownBy(() -> {
                        try (Statement s = c.createStatement()) {
                            s.executeUpdate("INSERT INTO t VALUES (" + id + ", 'primary down', 0)");
                        }
                    }).hasMessageContaining("s0 primary");
                    assertThat((System.nanoTime() - start) / 1_000_000).as("a write fails within 2 s").isLessThan(2000);
                    assertThat(serverId(c, "SELECT COUNT(*) >= 0 FROM t")).isEqualTo(1);
                    assertThat(serverId(c, "SELECT @@server_id")).isIn(r1.serverId(), r2.serverId());
                }
            } finally {
                primary.restart();
            }
            long deadline = System.nanoTime() + 30_000_000_000L;
            boolean written = false;
            while (!written && System.nanoTime() < deadline) {
                try (Statement s = c.createStatement()) {
                    written = s.executeUpdate("INSERT INTO t VALUES (6100, 'primary back', @@server_id)") == 1;
                } catch (SQLException e) {
                    Thread.sleep(100); // poll interval while the primary finishes starting
                }
            }
            assertThat(written).as("a write succeeds once the primary is back, without restarting Shardgate").isTrue();
        }
    }

    @Test
    @Order(9)
    void readWriteSysbenchGetsCleanErrorsWhileThePrimaryRestarts() throws Exception {
        awaitCaughtUp();
        Thread restarter = new Thread(() -> {
            try {
                Thread.sleep(3000); // a moment in the middle of the run
                primary.kill();
                primary.restart();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        restarter.start();
        long start = System.nanoTime();
        Cli.Result run = Cli.run(sysbench("oltp_read_write", "run", "--threads=4", "--time=12",
                "--mysql-ignore-errors=all"), null, 90);
        restarter.join();
        assertThat((System.nanoTime() - start) / 1_000_000_000L).as("sysbench was never stuck").isLessThan(40);
        assertThat(run.status()).as(run.stdout() + run.stderr()).isZero();
        try (Connection c = proxy.mariadb("rw", ""); Statement s = c.createStatement()) {
            assertThat(s.executeUpdate("INSERT INTO t VALUES (7000, 'after the restart', @@server_id)")).isEqualTo(1);
        }
    }
}
