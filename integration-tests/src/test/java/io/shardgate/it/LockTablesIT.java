package io.shardgate.it;

import io.shardgate.replication.topology.Node;
import io.shardgate.replication.topology.Topology;
import io.shardgate.replication.topology.TopologySpec;
import io.shardgate.storage.Engine;
import org.junit.jupiter.api.AfterAll;
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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.shardgate.it.ShopData.firstKeyOn;
import static io.shardgate.it.ShopData.shardOf;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * LOCK TABLES / UNLOCK TABLES in a sharded deployment (issue #19): a default {@code mariadb-dump} (each table's
 * INSERTs between {@code LOCK TABLES t WRITE} and {@code UNLOCK TABLES}) of an unsharded server loads through the
 * mariadb CLI, every row on its shard; a READ lock blocks another client's writes on both shards until UNLOCK
 * TABLES; a table not locked gets MariaDB's 1100; a client that leaves with its locks leaves none behind and no
 * backend connection in use; MySQL Connector/J and PyMySQL take and release locks too. Shards s0 (InnoDB) and s1
 * (MyRocks); {@code ref} is an unsharded server the dump comes from (not in the config).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class LockTablesIT {
    private static final List<String> SHARDS = List.of("s0", "s1");
    private static final String[] DDL = {
        "CREATE DATABASE shop",
        "CREATE TABLE shop.customers (id BIGINT PRIMARY KEY, name VARCHAR(64), country CHAR(2), created DATE)",
        "CREATE TABLE shop.orders (id BIGINT PRIMARY KEY, customer_id BIGINT, amount DECIMAL(10,2), status VARCHAR(16),"
                + " placed DATETIME, KEY (customer_id))",
        "CREATE TABLE shop.countries (code CHAR(2) PRIMARY KEY, name VARCHAR(64))",
        "CREATE TABLE shop.audit (id BIGINT PRIMARY KEY, note VARCHAR(64))",
    };
    /** {@code audit} is not in the rules: unsharded, on the first shard. */
    private static final String CONFIG = """
            schemas:
              - name: shop
                tables:
                  customers: { shard_key: id, vindex: hash }
                  orders:    { shard_key: customer_id, vindex: hash }
                  countries: { type: reference }
            """;

    private Topology topology;
    private final Map<String, Node> primaries = new LinkedHashMap<>();
    private Node oracle;
    private ProxyFixture proxy;

    @BeforeAll
    void start() {
        topology = Topology.start(TopologySpec.builder()
                .shard("s0", Engine.INNODB, 0)
                .shard("s1", Engine.ROCKSDB, 0)
                .shard("ref", Engine.INNODB, 0)
                .build());
        SHARDS.forEach(name -> primaries.put(name, topology.shard(name).primary()));
        oracle = topology.shard("ref").primary();
        for (Node node : List.of(primaries.get("s0"), primaries.get("s1"), oracle)) {
            node.execute(DDL);
        }
        proxy = ProxyFixture.start(topology, new LinkedHashMap<>(ProxyFixture.HALVES), CONFIG);
    }

    @AfterAll
    void stop() {
        ProxyFixture.stop(proxy, topology);
    }

    @Test
    @Order(1)
    void aDefaultDumpOfAnUnshardedServerLoadsThroughTheMariadbCliEveryRowOnItsShard() throws Exception {
        List<String> statements = new ArrayList<>(ShopData.multiRowInserts("shop.customers", "(id, name, country, created)",
                ShopData.customers(), ShopData.Customer::values, 500));
        List<String> orders = ShopData.orders().stream()
                .map(o -> o.valuesWithId(Long.toString(ShopData.EXPLICIT_ORDER_ID_BASE + o.ordinal()))).toList();
        statements.addAll(ShopData.multiRowInserts("shop.orders", "(id, customer_id, amount, status, placed)", orders, row -> row, 500));
        statements.add("INSERT INTO shop.countries VALUES ('DE', 'Germany'), ('FR', 'France'), ('NZ', 'New Zealand')");
        statements.add("INSERT INTO shop.audit VALUES (1, 'loaded'), (2, 'twice')");
        oracle.execute(statements.toArray(String[]::new));
        // mariadb-dump's defaults: LOCK TABLES `t` WRITE, ALTER TABLE `t` DISABLE KEYS, extended INSERTs, UNLOCK TABLES.
        Cli.Result dumped = Cli.run(List.of("mariadb-dump", "-h127.0.0.1", "-P" + oracle.port(), "-u" + topology.accounts().user(),
                "-p" + topology.accounts().password(), "--no-create-info", "shop"), null, 120);
        assertThat(dumped.status()).as("mariadb-dump: %s", dumped.stderr()).isZero();
        assertThat(dumped.stdout()).contains("LOCK TABLES `customers` WRITE;", "LOCK TABLES `orders` WRITE;", "UNLOCK TABLES;",
                "ALTER TABLE `customers` DISABLE KEYS", "INSERT INTO `customers` VALUES");
        long start = System.nanoTime();
        Cli.Result loaded = Cli.run(Cli.mariadb(proxy.port(), "shop"), dumped.stdout(), 300);
        System.out.printf("LockTablesIT: a default dump (%d KB) loaded through Shardgate with the mariadb CLI in %.2f s%n",
                dumped.stdout().length() / 1024, (System.nanoTime() - start) / 1e9);
        assertThat(loaded.status()).as("mariadb < dump.sql through Shardgate: %s", loaded.stderr()).isZero();

        assertCountsPerShard("customers", "id");
        assertCountsPerShard("orders", "customer_id");
        for (String shard : SHARDS) {
            assertThat(primaries.get(shard).queryString("SELECT GROUP_CONCAT(code ORDER BY code) FROM shop.countries"))
                    .as("reference rows on %s", shard).isEqualTo("DE,FR,NZ");
        }
        assertThat(primaries.get("s0").queryString("SELECT COUNT(*) FROM shop.audit")).isEqualTo("2");
        assertThat(primaries.get("s1").queryString("SELECT COUNT(*) FROM shop.audit")).as("unsharded: first shard only").isEqualTo("0");
        awaitNoBackendInUse();
    }

    /** Per shard, the rows of {@code table} there are exactly the oracle's rows whose key maps there. */
    private void assertCountsPerShard(String table, String key) throws SQLException {
        Map<String, Long> expected = new LinkedHashMap<>();
        SHARDS.forEach(shard -> expected.put(shard, 0L));
        try (Connection connection = oracle.connect(); Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT " + key + " FROM shop." + table)) {
            while (rows.next()) {
                expected.merge(shardOf(rows.getLong(1)), 1L, Long::sum);
            }
        }
        assertThat(expected.values().stream().mapToLong(Long::longValue).sum()).as("%s rows in the oracle", table).isGreaterThan(1000);
        for (String shard : SHARDS) {
            assertThat(primaries.get(shard).queryString("SELECT COUNT(*) FROM shop." + table)).as("%s rows on %s", table, shard)
                    .isEqualTo(Long.toString(expected.get(shard)));
            String misplaced = primaries.get(shard).queryString("SELECT GROUP_CONCAT(" + key + ") FROM shop." + table);
            for (String value : misplaced.split(",")) {
                assertThat(shardOf(Long.parseLong(value))).as("%s %s = %s is on its shard", table, key, value).isEqualTo(shard);
            }
        }
    }

    @Test
    @Order(2)
    void aReadLockBlocksAnotherClientsWritesOnBothShardsUntilUnlockTables() throws Exception {
        long onS0 = firstKeyOn("s0", 900_000);
        long onS1 = firstKeyOn("s1", 900_000);
        try (Connection holder = proxy.mariadb("shop", ""); Statement locks = holder.createStatement()) {
            locks.execute("LOCK TABLES customers READ, countries AS c READ LOCAL");
            try (ResultSet rows = locks.executeQuery("SELECT COUNT(*) FROM customers")) {
                assertThat(rows.next()).isTrue();
                assertThat(rows.getLong(1)).as("reads under the lock, across shards").isGreaterThan(1000);
            }
            assertThatThrownBy(() -> locks.executeUpdate("INSERT INTO customers (id, name) VALUES (" + onS0 + ", 'mine')"))
                    .as("a READ lock: the holder may not write either").isInstanceOfSatisfying(SQLException.class,
                            e -> assertThat(e.getErrorCode()).isEqualTo(1099));
            List<CompletableFuture<Integer>> writes = new ArrayList<>();
            for (long id : List.of(onS0, onS1)) {
                writes.add(CompletableFuture.supplyAsync(() -> {
                    try (Connection other = proxy.mariadb("shop", ""); Statement s = other.createStatement()) {
                        return s.executeUpdate("INSERT INTO customers (id, name) VALUES (" + id + ", 'blocked writer')");
                    } catch (SQLException e) {
                        throw new IllegalStateException(e);
                    }
                }));
            }
            for (String shard : SHARDS) {
                await(() -> waitingForLock(shard, "blocked writer"), "the other client's INSERT waits for the lock on " + shard);
            }
            assertThat(writes).allSatisfy(write -> assertThat(write).isNotDone());
            locks.execute("UNLOCK TABLES");
            for (CompletableFuture<Integer> write : writes) {
                assertThat(write.get(30, TimeUnit.SECONDS)).isEqualTo(1);
            }
        }
        assertThat(primaries.get("s0").queryString("SELECT name FROM shop.customers WHERE id = " + onS0)).isEqualTo("blocked writer");
        assertThat(primaries.get("s1").queryString("SELECT name FROM shop.customers WHERE id = " + onS1)).isEqualTo("blocked writer");
    }

    /** Whether a statement containing {@code marker} waits for a table or metadata lock on {@code shard}'s primary. */
    private boolean waitingForLock(String shard, String marker) {
        return !"0".equals(primaries.get(shard).queryString("SELECT COUNT(*) FROM information_schema.PROCESSLIST"
                + " WHERE STATE LIKE '%lock%' AND INFO LIKE '%" + marker + "%'"));
    }

    @Test
    @Order(3)
    void underLockTablesATableNotLockedGets1100() throws Exception {
        try (Connection c = proxy.mariadb("shop", ""); Statement s = c.createStatement()) {
            s.execute("LOCK TABLES customers WRITE");
            assertThatThrownBy(() -> s.executeQuery("SELECT COUNT(*) FROM orders")).isInstanceOfSatisfying(SQLException.class, e -> {
                assertThat(e.getErrorCode()).isEqualTo(1100);
                assertThat(e.getMessage()).contains("Table 'orders' was not locked with LOCK TABLES");
            });
            assertThat(s.executeUpdate("UPDATE customers SET country = 'XX' WHERE id = 1")).as("the locked table is writable").isEqualTo(1);
            s.execute("LOCK TABLES audit READ"); // the first shard only; the previous locks are released first
            assertThatThrownBy(() -> s.executeQuery("SELECT COUNT(*) FROM customers")).as("customers needs s1, where nothing is locked")
                    .isInstanceOfSatisfying(SQLException.class, e -> {
                        assertThat(e.getErrorCode()).isEqualTo(1100);
                        assertThat(e.getMessage()).contains("Table 'customers' was not locked with LOCK TABLES");
                    });
            long onS1 = firstKeyOn("s1", 1);
            assertThatThrownBy(() -> s.executeQuery("SELECT name FROM customers WHERE id = " + onS1))
                    .as("a point read on s1 alone: Shardgate's own 1100, in MariaDB's words").isInstanceOfSatisfying(SQLException.class, e -> {
                        assertThat(e.getErrorCode()).isEqualTo(1100);
                        assertThat(e.getSQLState()).isEqualTo("HY000");
                        assertThat(e.getMessage()).contains("Table 'customers' was not locked with LOCK TABLES");
                    });
            try (ResultSet rows = s.executeQuery("SELECT COUNT(*) FROM audit")) {
                assertThat(rows.next()).isTrue();
                assertThat(rows.getLong(1)).isEqualTo(2);
            }
            try (ResultSet rows = s.executeQuery("SELECT 1 + 1")) {
                assertThat(rows.next()).isTrue();
                assertThat(rows.getLong(1)).as("a statement without a table runs").isEqualTo(2);
            }
            s.execute("BEGIN"); // releases the locks, as MariaDB's BEGIN does
            try (ResultSet rows = s.executeQuery("SELECT COUNT(*) FROM orders")) {
                assertThat(rows.next()).isTrue();
            }
            s.execute("COMMIT");
            s.execute("UNLOCK TABLES"); // none held: OK
        }
        awaitNoBackendInUse();
    }

    @Test
    @Order(4)
    void aClientThatLeavesWithItsLocksLeavesNoLockAndNoBackendConnectionBehind() throws Exception {
        long id = firstKeyOn("s1", 910_000);
        Connection leaver = proxy.mariadb("shop", "");
        try (Statement s = leaver.createStatement()) {
            s.execute("LOCK TABLES customers WRITE, orders WRITE");
            s.executeUpdate("INSERT INTO customers (id, name) VALUES (" + id + ", 'before leaving')");
        }
        CompletableFuture<Integer> other = CompletableFuture.supplyAsync(() -> {
            try (Connection c = proxy.mariadb("shop", ""); Statement s = c.createStatement()) {
                return s.executeUpdate("UPDATE customers SET name = 'after the leaver' WHERE id = " + id);
            } catch (SQLException e) {
                throw new IllegalStateException(e);
            }
        });
        await(() -> waitingForLock("s1", "after the leaver"), "the other client's UPDATE waits for the leaver's lock");
        leaver.close(); // no UNLOCK TABLES
        assertThat(other.get(30, TimeUnit.SECONDS)).isEqualTo(1);
        assertThat(primaries.get("s1").queryString("SELECT name FROM shop.customers WHERE id = " + id)).isEqualTo("after the leaver");
        awaitNoBackendInUse();

        // Aborted without a goodbye (the socket just closes) in the middle of holding its locks.
        Cli.Result aborted = Cli.run(List.of("/usr/bin/python3", "-c", """
                import os, sys, pymysql
                c = pymysql.connect(host='127.0.0.1', port=int(sys.argv[1]), user='app', password='app', database='shop')
                c.cursor().execute("LOCK TABLES orders WRITE")
                os._exit(0)
                """, Integer.toString(proxy.port())), null, 60);
        assertThat(aborted.status()).as(aborted.stderr()).isZero();
        try (Connection c = proxy.mariadb("shop", "connectTimeout=5000&socketTimeout=30000"); Statement s = c.createStatement()) {
            assertThat(s.executeUpdate("UPDATE orders SET status = status WHERE customer_id = 1")).isGreaterThanOrEqualTo(0);
        }
        awaitNoBackendInUse();
    }

    @Test
    @Order(5)
    void mySqlConnectorJAndPyMySqlTakeAndReleaseLocks() throws Exception {
        long a = firstKeyOn("s0", 920_000);
        long b = firstKeyOn("s1", 920_000);
        try (Connection c = proxy.mysql("shop", "sslMode=DISABLED&useServerPrepStmts=true"); Statement s = c.createStatement()) {
            // The way to use LOCK TABLES with transactional tables: autocommit off, COMMIT, then UNLOCK TABLES.
            s.execute("SET autocommit = 0");
            s.execute("LOCK TABLES customers WRITE, countries READ");
            assertThat(s.executeUpdate("INSERT INTO customers (id, name) VALUES (" + a + ", 'cj'), (" + b + ", 'cj')")).isEqualTo(2);
            try (ResultSet rows = s.executeQuery("SELECT COUNT(*) FROM customers WHERE name = 'cj'")) {
                assertThat(rows.next()).isTrue();
                assertThat(rows.getLong(1)).isEqualTo(2);
            }
            // Prepared on the lock connection: a pooled one would wait for the session's own WRITE lock.
            try (java.sql.PreparedStatement read = c.prepareStatement("SELECT name FROM customers WHERE id = ?")) {
                read.setLong(1, b);
                try (ResultSet rows = read.executeQuery()) {
                    assertThat(rows.next()).isTrue();
                    assertThat(rows.getString(1)).as("its own uncommitted row, on the lock connection").isEqualTo("cj");
                }
            }
            s.execute("COMMIT");
            s.execute("UNLOCK TABLES");
            s.execute("SET autocommit = 1");
        }
        assertThat(primaries.get("s0").queryString("SELECT name FROM shop.customers WHERE id = " + a)).isEqualTo("cj");
        assertThat(primaries.get("s1").queryString("SELECT name FROM shop.customers WHERE id = " + b)).isEqualTo("cj");
        String script = """
                import sys, pymysql
                c = pymysql.connect(host='127.0.0.1', port=int(sys.argv[1]), user='app', password='app', database='shop',
                                    autocommit=True)
                cur = c.cursor()
                cur.execute("LOCK TABLES customers WRITE")
                cur.execute("UPDATE customers SET name = 'py' WHERE id IN (%s, %s)", (int(sys.argv[2]), int(sys.argv[3])))
                print(cur.rowcount)
                try:
                    cur.execute("SELECT COUNT(*) FROM orders")
                except pymysql.err.OperationalError as e:
                    print(e.args[0])
                cur.execute("UNLOCK TABLES")
                cur.execute("SELECT COUNT(*) FROM orders WHERE customer_id = 1")
                print(cur.fetchone()[0] >= 0)
                """;
        Cli.Result python = Cli.run(List.of("/usr/bin/python3", "-c", script, Integer.toString(proxy.port()), Long.toString(a),
                Long.toString(b)), null, 60);
        assertThat(python.status()).as(python.stderr()).isZero();
        assertThat(python.stdout()).isEqualTo("2\n1100\nTrue\n");
        assertThat(primaries.get("s1").queryString("SELECT name FROM shop.customers WHERE id = " + b)).isEqualTo("py");
        awaitNoBackendInUse();
    }

    @Test
    @Order(6)
    void killQueryStopsAWaitingLockTablesAndKillResetOrChangeUserReleaseTheLocks() throws Exception {
        String write = "UPDATE orders SET status = status WHERE customer_id = 1";
        // The holder is closed first when an assertion fails, so that the statements it blocks end too.
        try (Connection waiter = proxy.mariadb("shop", ""); Statement w = waiter.createStatement();
             Connection killer = proxy.mariadb("shop", ""); Statement k = killer.createStatement();
             Connection holder = proxy.mariadb("shop", ""); Statement h = holder.createStatement()) {
            h.execute("LOCK TABLES orders WRITE");
            long waiterId = waiter.unwrap(org.mariadb.jdbc.Connection.class).getThreadId();
            CompletableFuture<Boolean> waiting = CompletableFuture.supplyAsync(() -> {
                try {
                    return w.execute("LOCK TABLES orders AS waiter READ");
                } catch (SQLException e) {
                    throw new java.util.concurrent.CompletionException(e);
                }
            });
            await(() -> waitingForLock("s0", "waiter"), "the second LOCK TABLES waits on s0");
            k.execute("KILL QUERY " + waiterId);
            assertThatThrownBy(() -> waiting.get(30, TimeUnit.SECONDS)).cause().isInstanceOfSatisfying(SQLException.class,
                    e -> assertThat(e.getErrorCode()).isEqualTo(1317));
            try (ResultSet rows = w.executeQuery("SELECT 'still here'")) {
                assertThat(rows.next()).as("the killed LOCK TABLES' session goes on").isTrue();
            }
            CompletableFuture<Integer> blocked = CompletableFuture.supplyAsync(() -> update(w, write));
            await(() -> waitingForLock(shardOf(1), write), "the waiter's write waits for the holder's lock");
            k.execute("KILL " + holder.unwrap(org.mariadb.jdbc.Connection.class).getThreadId());
            assertThat(blocked.get(30, TimeUnit.SECONDS)).as("KILL of the holder released its locks").isGreaterThanOrEqualTo(0);
        }
        awaitNoBackendInUse();
        // COM_RESET_CONNECTION and COM_CHANGE_USER release them too.
        try (Connection other = proxy.mariadb("shop", ""); Statement s = other.createStatement();
             RawClient client = new RawClient(proxy.port(), 10_000)) {
            assertThat(client.login(ProxyFixture.USER, ProxyFixture.PASSWORD).isErr()).isFalse();
            assertThat(client.queryFirst("LOCK TABLES shop.orders WRITE")).isNull();
            client.write(0, new byte[] {0x1F}); // COM_RESET_CONNECTION
            assertThat(client.read().isErr()).isFalse();
            assertThat(CompletableFuture.supplyAsync(() -> update(s, write)).get(30, TimeUnit.SECONDS)).isGreaterThanOrEqualTo(0);
            assertThat(client.queryFirst("LOCK TABLES shop.orders WRITE")).as("the reset session locks again").isNull();
            assertThat(client.changeUser(ProxyFixture.USER, ProxyFixture.PASSWORD, "shop").isErr()).isFalse();
            assertThat(CompletableFuture.supplyAsync(() -> update(s, write)).get(30, TimeUnit.SECONDS)).isGreaterThanOrEqualTo(0);
        }
        awaitNoBackendInUse();
    }

    /**
     * A statement the shards refuse under LOCK TABLES (1100 from each shard's server), then UNLOCK TABLES at once, 300
     * times: the refused statement's hand-back, late on its connection's event loop, once gave the lock connection back
     * to its pool a second time while UNLOCK TABLES ran on it (1927 for the UNLOCK TABLES, in_use -1).
     */
    @Test
    @Order(7)
    void unlockTablesRightAfterAStatementTheShardsRefusedLeavesEveryPoolWhole() throws Exception {
        String script = """
                import sys, pymysql
                c = pymysql.connect(host='127.0.0.1', port=int(sys.argv[1]), user='app', password='app', database='shop',
                                    autocommit=True)
                cur = c.cursor()
                refused = 0
                for i in range(300):
                    cur.execute("LOCK TABLES customers WRITE")
                    try:
                        cur.execute("SELECT COUNT(*) FROM orders")
                    except pymysql.err.OperationalError as e:
                        refused += e.args[0] == 1100
                    cur.execute("UNLOCK TABLES")
                print(refused)
                """;
        Cli.Result python = Cli.run(List.of("/usr/bin/python3", "-c", script, Integer.toString(proxy.port())), null, 120);
        assertThat(python.status()).as(python.stderr()).isZero();
        assertThat(python.stdout()).isEqualTo("300\n");
        awaitNoBackendInUse();
    }

    private static int update(Statement statement, String sql) {
        try {
            return statement.executeUpdate(sql);
        } catch (SQLException e) {
            throw new java.util.concurrent.CompletionException(e);
        }
    }

    private static void await(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting until " + what);
            }
            Thread.sleep(20);
        }
    }

    /** Once no client is connected, no backend connection is in use (the pinned ones went back or were closed). */
    private void awaitNoBackendInUse() throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        Pattern clients = Pattern.compile("(?m)^shardgate_client_connections (\\S+)");
        Pattern inUse = Pattern.compile("(?m)^shardgate_backend_connections\\{[^}]*state=\"in_use\"[^}]*} (\\S+)");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        String last = "";
        while (System.nanoTime() < deadline) {
            last = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + proxy.adminPort() + "/metrics"))
                    .header("Authorization", "Bearer " + ProxyFixture.ADMIN_TOKEN).build(), HttpResponse.BodyHandlers.ofString()).body();
            Matcher c = clients.matcher(last);
            boolean idle = c.find() && Double.parseDouble(c.group(1)) == 0;
            Matcher b = inUse.matcher(last);
            while (idle && b.find()) {
                idle = Double.parseDouble(b.group(1)) == 0;
            }
            if (idle) {
                return;
            }
            Thread.sleep(20);
        }
        throw new AssertionError("client or backend connections still in use:\n" + last.lines()
                .filter(l -> l.startsWith("shardgate_client_connections ") || l.startsWith("shardgate_backend_connections"))
                .reduce("", (x, y) -> x + y + "\n"));
    }
}
