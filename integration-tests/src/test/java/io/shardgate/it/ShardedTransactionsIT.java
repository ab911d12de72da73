package io.shardgate.it;

import io.shardgate.proxy.sharding.xa.XaId;
import io.shardgate.replication.topology.Node;
import io.shardgate.replication.topology.Topology;
import io.shardgate.replication.topology.TopologySpec;
import io.shardgate.storage.Engine;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.shardgate.it.ShopData.firstKeyOn;
import static io.shardgate.it.ShopData.shardOf;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Cross-shard transactions through Shardgate with MariaDB Connector/J (issue #6, "XA" and
 * "Sequences"): s0 on InnoDB (also the decision shard) and s1 on MyRocks, each a primary and a
 * replica, with {@code transactions: { cross_shard: xa }}. What the shards hold is read on their
 * primaries directly.
 *
 * <p>Each test starts its own proxy, so no other proxy's XA recovery runs against the shards
 * while a test looks at prepared branches. The crash tests run Shardgate as a separate process
 * ({@code ./shardgate run --config FILE}) and SIGKILL it while its coordinator waits to log the
 * commit decision, held there by {@code LOCK TABLES _shardgate.xa_decisions WRITE} on s0.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ShardedTransactionsIT {
    private static final Path HOME = Path.of(System.getProperty("shardgate.home", "..")).toAbsolutePath().normalize();
    private static final Path JAR = HOME.resolve("proxy-core/target/shardgate.jar");
    private static final Pattern LISTENING = Pattern.compile("Shardgate listening on 127\\.0\\.0\\.1:(\\d+)");
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final List<String> SHARDS = List.of("s0", "s1");
    /** MySQL server status flags, as Connector/J keeps them from the last OK/EOF packet. */
    private static final int IN_TRANS = 1;
    private static final int AUTOCOMMIT = 2;
    /** ShardingIT's configuration. */
    private static final String CONFIG = """
            schemas:
              - name: shop
                tables:
                  customers: { shard_key: id, vindex: hash }
                  orders:    { shard_key: customer_id, vindex: hash }
                  events:    { shard_key: id, vindex: hash }
                  countries: { type: reference }
                  settings:  { type: unsharded, shard: s0 }
                sequences:
                  orders.id: { shard: s0 }
            transactions: { cross_shard: xa }
            """;

    private Topology topology;
    private Map<String, Map<String, String>> shardKeys;

    @BeforeAll
    void start() {
        topology = Topology.start(TopologySpec.builder()
                .shard("s0", Engine.INNODB, 1)
                .shard("s1", Engine.ROCKSDB, 1)
                .build());
        for (String shard : SHARDS) {
            primary(shard).execute(ShopData.DDL);
        }
        assertThat(primary("s1").queryString("SELECT ENGINE FROM information_schema.TABLES"
                + " WHERE TABLE_SCHEMA = 'shop' AND TABLE_NAME = 'customers'")).isEqualTo("ROCKSDB");
        shardKeys = ProxyFixture.HALVES;
    }

    @AfterAll
    void stop() {
        if (topology != null) {
            topology.close();
        }
    }

    @Test
    void aCrossShardTransactionCommitsOnBothShardsAtOnce() throws Exception {
        // docs/sharding.md's worked examples.
        assertThat(List.of(shardOf(5), shardOf(2), shardOf(-7), shardOf(1), shardOf(4))).containsExactly("s0", "s0", "s0", "s1", "s1");
        try (ProxyFixture proxy = ProxyFixture.start(topology, shardKeys, CONFIG);
             Connection client = proxy.mariadb("shop", "");
             Connection other = proxy.mariadb("shop", "");
             Statement statement = client.createStatement()) {
            // BEGIN ... COMMIT as text statements.
            assertThat(serverStatus(client) & (IN_TRANS | AUTOCOMMIT)).as("status before BEGIN").isEqualTo(AUTOCOMMIT);
            statement.execute("BEGIN");
            assertThat(serverStatus(client) & IN_TRANS).as("IN_TRANS after BEGIN").isEqualTo(IN_TRANS);
            statement.executeUpdate("INSERT INTO customers (id, name) VALUES (5, 'five')");
            statement.executeUpdate("INSERT INTO customers (id, name) VALUES (1, 'one')");
            assertThat(scalar(client, "SELECT COUNT(*) FROM customers WHERE id IN (5, 1)")).as("own writes, inside").isEqualTo(2);
            assertThat(scalar(other, "SELECT COUNT(*) FROM customers WHERE id IN (5, 1)")).as("another client").isZero();
            assertThat(visible(5, 1)).as("on the primaries before COMMIT").containsExactly(false, false);
            statement.execute("COMMIT");
            assertThat(serverStatus(client) & (IN_TRANS | AUTOCOMMIT)).as("status after COMMIT").isEqualTo(AUTOCOMMIT);
            assertThat(visible(5, 1)).as("on the primaries after COMMIT").containsExactly(true, true);
            assertOnlyOnItsShard(5, 1);
            assertThat(scalar(other, "SELECT COUNT(*) FROM customers WHERE id IN (5, 1)")).isEqualTo(2);
            assertNoPreparedBranches();

            // Connector/J's own transaction calls: commit() sends COMMIT only when the last status said IN_TRANS.
            client.setAutoCommit(false);
            assertThat(client.getAutoCommit()).as("getAutoCommit() reads the AUTOCOMMIT status flag").isFalse();
            try (PreparedStatement insert = client.prepareStatement("INSERT INTO customers (id, name) VALUES (?, ?)")) {
                for (long id : List.of(2L, 4L)) {
                    insert.setLong(1, id);
                    insert.setString(2, "c" + id);
                    assertThat(insert.executeUpdate()).isEqualTo(1);
                }
            }
            assertThat(serverStatus(client) & (IN_TRANS | AUTOCOMMIT)).as("status in an implicit transaction").isEqualTo(IN_TRANS);
            assertThat(visible(2, 4)).as("on the primaries before commit()").containsExactly(false, false);
            client.commit();
            assertThat(serverStatus(client) & IN_TRANS).as("IN_TRANS after commit()").isZero();
            assertThat(visible(2, 4)).as("on the primaries after commit()").containsExactly(true, true);
            assertOnlyOnItsShard(2, 4);

            // SET autocommit=1 (setAutoCommit(true)) commits the open transaction, as on one server.
            long onS1 = firstKeyOn("s1", 100);
            statement.executeUpdate("INSERT INTO customers (id, name) VALUES (-7, 'minus seven'), (" + onS1 + ", 'x')");
            assertThat(serverStatus(client) & IN_TRANS).isEqualTo(IN_TRANS);
            assertThat(visible(-7, onS1)).containsExactly(false, false);
            client.setAutoCommit(true);
            assertThat(client.getAutoCommit()).isTrue();
            assertThat(serverStatus(client) & (IN_TRANS | AUTOCOMMIT)).as("status after setAutoCommit(true)").isEqualTo(AUTOCOMMIT);
            assertThat(visible(-7, onS1)).as("committed by setAutoCommit(true)").containsExactly(true, true);
            assertNoPreparedBranches();
        }
    }

    @Test
    void setTransactionAppliesToTheNextTransactionOnEveryBranchAndOnlyToIt() throws Exception {
        try (ProxyFixture proxy = ProxyFixture.start(topology, shardKeys, CONFIG);
             Connection client = proxy.mariadb("shop", ""); Statement statement = client.createStatement()) {
            statement.execute("SET TRANSACTION ISOLATION LEVEL READ COMMITTED");
            statement.execute("BEGIN");
            // Customer 5 lives on s0 (InnoDB): reading it starts the transaction's s0 branch, which a
            // statement without a table (on the first shard, s0) shares.
            statement.executeQuery("SELECT * FROM customers WHERE id = 5").close();
            assertThat(branchIsolation(statement)).as("the transaction's level on its s0 branch").isEqualTo("READ-COMMITTED");
            statement.execute("COMMIT");
            statement.execute("BEGIN");
            statement.executeQuery("SELECT * FROM customers WHERE id = 5").close();
            assertThat(branchIsolation(statement)).as("the next transaction is back to the session's level").isEqualTo("REPEATABLE-READ");
            statement.execute("COMMIT");
        }
    }

    private static String branchIsolation(Statement statement) throws SQLException {
        try (ResultSet rows = statement.executeQuery("SELECT @@tx_isolation")) {
            assertThat(rows.next()).isTrue();
            return rows.getString(1);
        }
    }

    @Test
    void withCrossShardRejectedASecondWrittenShardIsRefusedAndTheFirstStillCommits() throws Exception {
        long[] ids = pair(600_000);
        try (ProxyFixture proxy = ProxyFixture.start(topology, shardKeys, CONFIG.replace("cross_shard: xa", "cross_shard: reject"));
             Connection client = proxy.mariadb("shop", ""); Statement statement = client.createStatement()) {
            statement.execute("BEGIN");
            statement.executeUpdate("INSERT INTO customers (id, name) VALUES (" + ids[0] + ", 'first shard')");
            // Reading the other shard is fine; writing it is what a rejecting deployment refuses.
            statement.executeQuery("SELECT * FROM customers WHERE id = " + ids[1]).close();
            assertThatThrownBy(() -> statement.executeUpdate("INSERT INTO customers (id, name) VALUES (" + ids[1] + ", 'second')"))
                    .isInstanceOfSatisfying(SQLException.class, e -> {
                        assertThat(e.getErrorCode()).isEqualTo(1235);
                        assertThat(e.getMessage()).contains("writing to shard s1 after writing to s0");
                    });
            statement.execute("COMMIT");
            assertThat(visible(ids)).as("the first shard's write committed, the refused one absent").containsExactly(true, false);
            assertNoPreparedBranches();
        }
    }

    @Test
    void aRollbackLeavesNoTraceOnEitherShard() throws Exception {
        long[] kept = pair(200);
        long[] added = pair(210);
        long[] addedWithoutAutocommit = pair(220);
        try (ProxyFixture proxy = ProxyFixture.start(topology, shardKeys, CONFIG);
             Connection client = proxy.mariadb("shop", "");
             Statement statement = client.createStatement()) {
            statement.executeUpdate("INSERT INTO customers (id, name) VALUES (" + kept[0] + ", 'kept'), (" + kept[1] + ", 'kept')");
            assertThat(visible(kept)).containsExactly(true, true);

            statement.execute("BEGIN");
            statement.executeUpdate("INSERT INTO customers (id, name) VALUES (" + added[0] + ", 'added'), (" + added[1] + ", 'added')");
            assertThat(statement.executeUpdate("UPDATE customers SET name = 'changed' WHERE id IN (" + kept[0] + ", " + kept[1] + ")"))
                    .isEqualTo(2);
            assertThat(scalar(client, "SELECT COUNT(*) FROM customers WHERE name = 'changed'")).as("inside the transaction").isEqualTo(2);
            statement.execute("ROLLBACK");
            assertThat(serverStatus(client) & IN_TRANS).as("IN_TRANS after ROLLBACK").isZero();

            client.setAutoCommit(false);
            try (PreparedStatement insert = client.prepareStatement("INSERT INTO customers (id, name) VALUES (?, 'added')")) {
                for (long id : addedWithoutAutocommit) {
                    insert.setLong(1, id);
                    insert.executeUpdate();
                }
            }
            statement.executeUpdate("DELETE FROM customers WHERE id IN (" + kept[0] + ", " + kept[1] + ")");
            assertThat(serverStatus(client) & IN_TRANS).isEqualTo(IN_TRANS);
            client.rollback();
            assertThat(serverStatus(client) & IN_TRANS).as("IN_TRANS after rollback()").isZero();
            client.setAutoCommit(true);

            for (String shard : SHARDS) {
                int i = SHARDS.indexOf(shard);
                assertThat(primary(shard).queryString("SELECT name FROM shop.customers WHERE id = " + kept[i]))
                        .as("the kept row on %s", shard).isEqualTo("kept");
                assertThat(primary(shard).queryString("SELECT COUNT(*) FROM shop.customers WHERE id IN ("
                        + added[i] + ", " + addedWithoutAutocommit[i] + ")")).as("rolled-back inserts on %s", shard).isEqualTo("0");
            }
            assertThat(scalar(client, "SELECT COUNT(*) FROM customers WHERE name IN ('added', 'changed')")).isZero();
            assertNoPreparedBranches();
            // No row lock stayed behind: the same rows can be written at once, directly on each primary.
            for (String shard : SHARDS) {
                int i = SHARDS.indexOf(shard);
                try (Connection direct = primary(shard).connect(); Statement write = direct.createStatement()) {
                    write.execute(shard.equals("s0") ? "SET SESSION innodb_lock_wait_timeout = 2" : "SET SESSION rocksdb_lock_wait_timeout = 2");
                    assertThat(write.executeUpdate("UPDATE shop.customers SET name = 'kept' WHERE id = " + kept[i])).isEqualTo(1);
                    assertThat(write.executeUpdate("DELETE FROM shop.customers WHERE id IN (" + added[i] + ", "
                            + addedWithoutAutocommit[i] + ")")).isZero();
                }
            }
        }
    }

    /**
     * Killed after both branches prepared and before the commit decision was written: the decision
     * write never runs (the test kills the server session the dead proxy left waiting on the lock),
     * and the restarted proxy rolls both branches back, fencing the gtrid with ABORT.
     */
    @Test
    void aProxyKilledBeforeLoggingTheDecisionIsRolledBackOnBothShardsAfterRestart() throws Exception {
        crashBetweenPrepareAndCommit(false, pair(1000), pair(1010));
    }

    /**
     * Killed after both branches prepared, while the decision write was already sent: that write
     * completes on s0 after the proxy is dead (the server does not notice a vanished client while a
     * statement waits for a table lock), so COMMIT is logged and no XA COMMIT was ever sent. The
     * restarted proxy commits both branches.
     */
    @Test
    void aProxyKilledAfterLoggingTheDecisionIsCommittedOnBothShardsAfterRestart() throws Exception {
        crashBetweenPrepareAndCommit(true, pair(2000), pair(2010));
    }

    private void crashBetweenPrepareAndCommit(boolean decisionLogged, long[] warmUp, long[] rows) throws Exception {
        Path config = Files.createTempFile("shardgate-xa-crash", ".yaml");
        Files.writeString(config, ProxyFixture.config(topology, shardKeys, CONFIG));
        String gtrid;
        try {
            try (ProxyProcess first = ProxyProcess.start(config);
                 Connection lockHolder = primary("s0").connect(); Statement lock = lockHolder.createStatement();
                 Connection client = first.connect(); Statement statement = client.createStatement()) {
                // One cross-shard commit through this process: it works, and the decision table exists.
                statement.execute("BEGIN");
                insertPair(statement, warmUp, "warm-up");
                statement.execute("COMMIT");
                assertThat(visible(warmUp)).as("the warm-up transaction").containsExactly(true, true);

                lock.execute("LOCK TABLES _shardgate.xa_decisions WRITE");
                statement.execute("BEGIN");
                insertPair(statement, rows, "crash");
                CompletableFuture<Void> commit = CompletableFuture.runAsync(() -> {
                    try {
                        statement.execute("COMMIT");
                    } catch (SQLException e) {
                        throw new CompletionException(e);
                    }
                }, task -> new Thread(task, "client-commit").start());

                List<XaId> prepared = await("both branches prepared (XA RECOVER on both primaries)", () -> {
                    List<XaId> ids = preparedBranches();
                    return ids.size() == 2 ? Optional.of(ids) : Optional.empty();
                });
                gtrid = prepared.get(0).gtrid();
                assertThat(prepared).containsExactlyInAnyOrder(new XaId(gtrid, "s0"), new XaId(gtrid, "s1"));
                long decisionWrite = await("the coordinator waits for the table lock to log COMMIT", () -> Optional.ofNullable(
                        primary("s0").queryString("SELECT ID FROM information_schema.PROCESSLIST WHERE INFO LIKE"
                                + " 'INSERT INTO _shardgate.xa_decisions%' AND STATE LIKE '%lock%'")).map(Long::parseLong));
                assertThat(commit).as("the client's COMMIT waits for the decision").isNotDone();
                long lockSession = connectionId(lockHolder);
                Map<String, Set<Long>> proxySessions = new HashMap<>();
                for (String shard : SHARDS) {
                    proxySessions.put(shard, sessionsOtherThan(shard, lockSession));
                }

                first.kill();

                assertThatThrownBy(() -> commit.get(WAIT.toSeconds(), TimeUnit.SECONDS)).as("the client's COMMIT")
                        .isInstanceOf(ExecutionException.class).cause().isInstanceOf(SQLException.class);
                if (!decisionLogged) {
                    lock.execute("KILL " + decisionWrite);
                }
                lock.execute("UNLOCK TABLES");
                if (decisionLogged) {
                    await("the dead proxy's decision write completes", () -> Optional.ofNullable(decisionOf(gtrid)));
                }
                for (String shard : SHARDS) {
                    await("the dead proxy's sessions on " + shard + " end", () -> sessionsOtherThan(shard, lockSession)
                            .stream().noneMatch(proxySessions.get(shard)::contains) ? Optional.of(true) : Optional.empty());
                }
                assertThat(decisionOf(gtrid)).as("the decision logged for " + gtrid).isEqualTo(decisionLogged ? "commit" : null);
                assertThat(preparedBranches()).as("the branches the crash left prepared")
                        .containsExactlyInAnyOrder(new XaId(gtrid, "s0"), new XaId(gtrid, "s1"));
                assertThat(visible(rows)).containsExactly(false, false);
            }

            long begin = System.nanoTime();
            try (ProxyProcess second = ProxyProcess.start(config)) {
                await("the restarted proxy resolves the prepared branches", () -> preparedBranches().isEmpty() ? Optional.of(true)
                        : Optional.empty());
                System.out.printf("ShardedTransactionsIT: restarted proxy resolved %s (%s) %.2f s after it was started%n", gtrid,
                        decisionLogged ? "commit logged" : "no decision", (System.nanoTime() - begin) / 1e9);
                assertThat(visible(rows)).as("both shards resolved the same way: " + (decisionLogged ? "committed" : "rolled back"))
                        .containsExactly(decisionLogged, decisionLogged);
                assertThat(decisionOf(gtrid)).as("the decision log after recovery (ABORT fences an undecided gtrid)")
                        .isEqualTo(decisionLogged ? "commit" : "abort");
                try (Connection client = second.connect()) {
                    assertThat(scalar(client, "SELECT COUNT(*) FROM customers WHERE id IN (" + rows[0] + ", " + rows[1] + ")"))
                            .as("through the restarted proxy").isEqualTo(decisionLogged ? 2 : 0);
                }
            }
            topology.awaitReplication(WAIT);
            for (String shard : SHARDS) {
                int i = SHARDS.indexOf(shard);
                Node replica = topology.shard(shard).replica(0);
                assertThat(replica.queryString("SELECT COUNT(*) FROM shop.customers WHERE id IN (" + warmUp[i] + ", " + rows[i] + ")"))
                        .as("%s's replica agrees with its primary", shard).isEqualTo(decisionLogged ? "2" : "1");
                assertThat(preparedOn(replica)).as("XA RECOVER on %s's replica", shard).isEmpty();
            }
        } finally {
            Files.deleteIfExists(config);
        }
    }

    @Test
    void eightConcurrentWritersGetFortyThousandDistinctIdsFromTheGlobalSequence() throws Exception {
        int writers = 8;
        int perWriter = 5000;
        int perStatement = 100;
        Map<Long, String> reported = new HashMap<>();
        long begin = System.nanoTime();
        try (ProxyFixture proxy = ProxyFixture.start(topology, shardKeys, CONFIG)) {
            ExecutorService pool = Executors.newFixedThreadPool(writers);
            CountDownLatch go = new CountDownLatch(1);
            try {
                List<Future<Map<Long, String>>> results = new ArrayList<>();
                for (int w = 0; w < writers; w++) {
                    String writer = "w" + w;
                    boolean batched = w % 2 == 0;
                    int w4 = w;
                    results.add(pool.submit(() -> {
                        go.await();
                        // MySQL Connector/J's rewritten batches compute keys as LAST_INSERT_ID() + i: they must be consecutive.
                        Connection connection = w4 % 4 == 0 ? proxy.mariadb("shop", "useServerPrepStmts=true")
                                : proxy.mysql("shop", "sslMode=DISABLED&rewriteBatchedStatements=true");
                        if (!batched) {
                            connection.close();
                            return insertMultiRow(proxy, writer, perWriter, perStatement);
                        }
                        return insertBatched(connection, writer, perWriter, perStatement);
                    }));
                }
                go.countDown();
                for (Future<Map<Long, String>> result : results) {
                    Map<Long, String> ids = result.get(120, TimeUnit.SECONDS);
                    ids.forEach((id, row) -> assertThat(reported.put(id, row)).as("id %d reported twice", id).isNull());
                }
            } finally {
                pool.shutdownNow();
            }
        }
        System.out.printf("ShardedTransactionsIT: %d writers inserted %d orders in %.2f s%n", writers, writers * perWriter,
                (System.nanoTime() - begin) / 1e9);

        Map<Long, String> stored = new HashMap<>();
        List<String> duplicates = new ArrayList<>();
        List<String> misplaced = new ArrayList<>();
        for (String shard : SHARDS) {
            try (Connection direct = primary(shard).connect(); Statement statement = direct.createStatement();
                 ResultSet rows = statement.executeQuery("SELECT id, customer_id, status, amount FROM shop.orders WHERE status LIKE 'w%'")) {
                while (rows.next()) {
                    long id = rows.getLong(1);
                    String row = rows.getString(3) + "#" + rows.getBigDecimal(4).intValueExact();
                    if (stored.put(id, row) != null) {
                        duplicates.add(shard + ": " + id);
                    }
                    if (!shardOf(rows.getLong(2)).equals(shard)) {
                        misplaced.add(shard + ": " + id);
                    }
                }
            }
        }
        assertThat(duplicates).as("order ids stored more than once").isEmpty();
        assertThat(stored).as("new orders on the primaries, each with its own id").hasSize(writers * perWriter);
        assertThat(new HashSet<>(stored.values())).as("every inserted row is stored").hasSize(writers * perWriter);
        assertThat(misplaced).as("orders not on their customer's shard").isEmpty();
        assertThat(stored.keySet()).allMatch(id -> id > 0);
        // A batched writer reports every row's key; a multi-row writer the first row's (LAST_INSERT_ID()).
        assertThat(reported).hasSize(writers / 2 * perWriter + (writers - writers / 2) * perWriter / perStatement);
        List<String> wrong = new ArrayList<>();
        reported.forEach((id, row) -> {
            if (!row.equals(stored.get(id))) {
                wrong.add("id " + id + " reported for " + row + ", stored for " + stored.get(id));
            }
        });
        assertThat(wrong.stream().limit(10).toList()).as("reported ids that are not the id of the row they were reported for").isEmpty();
    }

    /** Prepared (server-side) single-row INSERTs in batches; returns every generated key with its row. */
    private static Map<Long, String> insertBatched(Connection connection, String writer, int rows, int perBatch) throws SQLException {
        Map<Long, String> ids = new HashMap<>();
        try (connection;
             PreparedStatement insert = connection.prepareStatement(
                     "INSERT INTO orders (customer_id, amount, status, placed) VALUES (?, ?, ?, '2024-01-01 00:00:00')",
                     Statement.RETURN_GENERATED_KEYS)) {
            for (int first = 0; first < rows; first += perBatch) {
                for (int i = first; i < first + perBatch; i++) {
                    insert.setLong(1, i % 97 + 1);
                    insert.setInt(2, i);
                    insert.setString(3, writer);
                    insert.addBatch();
                }
                insert.executeBatch();
                int i = first;
                try (ResultSet keys = insert.getGeneratedKeys()) {
                    while (keys.next()) {
                        ids.put(keys.getLong(1), writer + "#" + i++);
                    }
                }
                assertThat(i).as("generated keys of %s's batch from row %d", writer, first).isEqualTo(first + perBatch);
            }
        }
        return ids;
    }

    /** Multi-row text INSERTs; returns each statement's LAST_INSERT_ID() with its first row. */
    private static Map<Long, String> insertMultiRow(ProxyFixture proxy, String writer, int rows, int perStatement) throws SQLException {
        Map<Long, String> ids = new HashMap<>();
        try (Connection connection = proxy.mariadb("shop", ""); Statement statement = connection.createStatement()) {
            for (int first = 0; first < rows; first += perStatement) {
                StringBuilder sql = new StringBuilder("INSERT INTO orders (customer_id, amount, status, placed) VALUES ");
                for (int i = first; i < first + perStatement; i++) {
                    sql.append(i == first ? "" : ", ").append('(').append(i % 97 + 1).append(", ").append(i).append(", '")
                            .append(writer).append("', '2024-01-01 00:00:00')");
                }
                assertThat(statement.executeUpdate(sql.toString())).isEqualTo(perStatement);
                ids.put(scalar(connection, "SELECT LAST_INSERT_ID()"), writer + "#" + first);
            }
        }
        return ids;
    }

    // ----- the shards, directly -----

    private Node primary(String shard) {
        return topology.shard(shard).primary();
    }

    /** One key on s0 and one on s1, the first of each from {@code from} up. */
    private static long[] pair(long from) {
        return new long[] {firstKeyOn("s0", from), firstKeyOn("s1", from)};
    }

    private static void insertPair(Statement statement, long[] ids, String name) throws SQLException {
        for (long id : ids) {
            assertThat(statement.executeUpdate("INSERT INTO customers (id, name) VALUES (" + id + ", '" + name + "')")).isEqualTo(1);
        }
    }

    /** Whether the customer {@code onS0} is on s0's primary and {@code onS1} on s1's. */
    private List<Boolean> visible(long onS0, long onS1) {
        List<Boolean> visible = new ArrayList<>();
        long[] ids = {onS0, onS1};
        for (int i = 0; i < SHARDS.size(); i++) {
            visible.add("1".equals(primary(SHARDS.get(i)).queryString("SELECT COUNT(*) FROM shop.customers WHERE id = " + ids[i])));
        }
        return visible;
    }

    private List<Boolean> visible(long[] pair) {
        return visible(pair[0], pair[1]);
    }

    private void assertOnlyOnItsShard(long onS0, long onS1) {
        assertThat(primary("s1").queryString("SELECT COUNT(*) FROM shop.customers WHERE id = " + onS0)).as("customer %d on s1", onS0)
                .isEqualTo("0");
        assertThat(primary("s0").queryString("SELECT COUNT(*) FROM shop.customers WHERE id = " + onS1)).as("customer %d on s0", onS1)
                .isEqualTo("0");
    }

    /** Every prepared XA branch on both primaries. */
    private List<XaId> preparedBranches() throws SQLException {
        List<XaId> prepared = new ArrayList<>();
        for (String shard : SHARDS) {
            prepared.addAll(preparedOn(primary(shard)));
        }
        return prepared;
    }

    /** {@code XA RECOVER} on {@code node}; fails on a branch that is not Shardgate's. */
    private static List<XaId> preparedOn(Node node) throws SQLException {
        List<XaId> prepared = new ArrayList<>();
        try (Connection connection = node.connect(); Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("XA RECOVER")) {
            while (rows.next()) {
                long formatId = rows.getLong("formatID");
                prepared.add(XaId.fromRecoverRow(formatId, rows.getLong("gtrid_length"), rows.getLong("bqual_length"),
                        rows.getBytes("data")).orElseThrow(() -> new AssertionError("a prepared branch on " + node.name()
                        + " with formatID " + formatId + ", not Shardgate's")));
            }
        }
        return prepared;
    }

    private void assertNoPreparedBranches() throws SQLException {
        assertThat(preparedBranches()).as("XA RECOVER on both primaries").isEmpty();
    }

    private String decisionOf(String gtrid) {
        return primary("s0").queryString("SELECT decision FROM _shardgate.xa_decisions WHERE gtrid = '" + gtrid + "'");
    }

    /** The sessions of the backend account on {@code shard}'s primary, other than {@code except} and replication. */
    private Set<Long> sessionsOtherThan(String shard, long except) throws SQLException {
        Set<Long> ids = new HashSet<>();
        try (Connection connection = primary(shard).connect();
             PreparedStatement select = connection.prepareStatement("SELECT ID FROM information_schema.PROCESSLIST"
                     + " WHERE USER = ? AND ID <> CONNECTION_ID() AND ID <> ? AND COMMAND NOT LIKE 'Binlog Dump%'")) {
            select.setString(1, topology.accounts().user());
            select.setLong(2, except);
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    ids.add(rows.getLong(1));
                }
            }
        }
        return ids;
    }

    private static long connectionId(Connection connection) throws SQLException {
        return scalar(connection, "SELECT CONNECTION_ID()");
    }

    private static long scalar(Connection connection, String sql) throws SQLException {
        try (Statement statement = connection.createStatement(); ResultSet rows = statement.executeQuery(sql)) {
            assertThat(rows.next()).as(sql).isTrue();
            return rows.getLong(1);
        }
    }

    /** The status flags of the last OK or EOF packet Connector/J read. */
    private static int serverStatus(Connection connection) throws SQLException {
        return connection.unwrap(org.mariadb.jdbc.Connection.class).getContext().getServerStatus();
    }

    private interface SqlProbe<T> {
        Optional<T> probe() throws Exception;
    }

    /** Polls {@code probe} until it finds a value; fails after {@link #WAIT}. */
    private static <T> T await(String what, SqlProbe<T> probe) throws Exception {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (true) {
            Optional<T> value = probe.probe();
            if (value.isPresent()) {
                return value.get();
            }
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("timed out after " + WAIT.toSeconds() + " s waiting until " + what);
            }
            LockSupport.parkNanos(Duration.ofMillis(50).toNanos());
        }
    }

    /** {@code ./shardgate run --config FILE} in a process of its own, as an operator starts it. */
    private static final class ProxyProcess implements AutoCloseable {
        private final Process process;
        private final List<String> output;
        private final int port;

        private ProxyProcess(Process process, List<String> output, int port) {
            this.process = process;
            this.output = output;
            this.port = port;
        }

        static ProxyProcess start(Path config) throws Exception {
            assertThat(JAR).as("the reactor built the runnable jar before this module").exists();
            ProcessBuilder builder = new ProcessBuilder(HOME.resolve("shardgate").toString(), "run", "--config", config.toString())
                    .redirectErrorStream(true);
            builder.environment().put("SHARDGATE_JAR", JAR.toString());
            Process process = builder.start();
            List<String> output = new ArrayList<>();
            CompletableFuture<Integer> listening = new CompletableFuture<>();
            Thread reader = new Thread(() -> {
                try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                    String line;
                    while ((line = in.readLine()) != null) {
                        synchronized (output) {
                            output.add(line);
                        }
                        Matcher port = LISTENING.matcher(line);
                        if (port.find()) {
                            listening.complete(Integer.parseInt(port.group(1)));
                        }
                    }
                } catch (IOException ignored) {
                    // The process ended.
                }
                listening.completeExceptionally(new IllegalStateException("the proxy exited before listening"));
            }, "shardgate-process-output");
            reader.setDaemon(true);
            reader.start();
            try {
                return new ProxyProcess(process, output, listening.get(WAIT.toSeconds(), TimeUnit.SECONDS));
            } catch (ExecutionException | TimeoutException e) {
                process.destroyForcibly();
                synchronized (output) {
                    throw new AssertionError("./shardgate run did not start listening; output:\n" + String.join("\n", output), e);
                }
            }
        }

        Connection connect() throws SQLException {
            return DriverManager.getConnection("jdbc:mariadb://127.0.0.1:" + port + "/shop", ProxyFixture.USER, ProxyFixture.PASSWORD);
        }

        /** SIGKILL: no shutdown hook, no rollback, connections cut. */
        void kill() throws InterruptedException {
            process.destroyForcibly();
            assertThat(process.waitFor(WAIT.toSeconds(), TimeUnit.SECONDS)).as("the proxy process is gone after SIGKILL").isTrue();
        }

        @Override
        public void close() throws InterruptedException {
            if (process.isAlive()) {
                process.destroy();
                if (!process.waitFor(WAIT.toSeconds(), TimeUnit.SECONDS)) {
                    process.destroyForcibly().waitFor();
                }
            }
        }
    }
}
