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
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static io.shardgate.it.ShopData.shardOf;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Schema tracking (issue #19, item 1): Shardgate reads the sharded tables' columns from the shards, so
 * INSERT without a column list, INSERT ... SET, REPLACE and ON DUPLICATE KEY UPDATE land each row on
 * its shard; a table altered through the proxy is read again at once; a dump of an unsharded server
 * loads through the mariadb CLI; a shard altered behind the proxy's back is reported. Shards s0
 * (InnoDB) and s1 (MyRocks, which has no generated columns: the router's golden cases cover those); {@code ref}
 * is an unsharded server the dump comes from (not in the config).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SchemaTrackingIT {
    private static final List<String> SHARDS = List.of("s0", "s1");
    private static final String[] DDL = {
        "CREATE DATABASE shop",
        "CREATE TABLE shop.customers (id BIGINT PRIMARY KEY, name VARCHAR(64), country CHAR(2), created DATE)",
        "CREATE TABLE shop.orders (id BIGINT PRIMARY KEY, customer_id BIGINT, amount DECIMAL(10,2), status VARCHAR(16),"
                + " placed DATETIME, KEY (customer_id))",
        "CREATE TABLE shop.countries (code CHAR(2) PRIMARY KEY, name VARCHAR(64))",
    };
    private static final String CONFIG = """
            schemas:
              - name: shop
                tables:
                  customers: { shard_key: id, vindex: hash }
                  orders:    { shard_key: customer_id, vindex: hash }
                  notes:     { shard_key: id, vindex: hash }
                  countries: { type: reference }
            schema_tracking: { check_interval_ms: 300 }
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
        Map<String, Map<String, String>> shards = new LinkedHashMap<>(ProxyFixture.HALVES);
        proxy = ProxyFixture.start(topology, shards, CONFIG);
    }

    @AfterAll
    void stop() {
        ProxyFixture.stop(proxy, topology);
    }

    private Connection client(String options) throws SQLException {
        return proxy.mariadb("shop", options);
    }

    @Test
    @Order(1)
    void insertFormsWithoutAColumnListPutEveryRowOnItsShard() throws Exception {
        try (Connection connection = client(""); Statement statement = connection.createStatement()) {
            statement.executeUpdate("INSERT INTO customers VALUES (1, 'Zoë', 'DE', '2024-01-01'), (2, 'b', NULL, NULL), (3, 'c', 'FR', NULL)");
            statement.executeUpdate("INSERT INTO customers SET id = 4, name = 'set form', country = 'US'");
            statement.executeUpdate("REPLACE INTO customers VALUES (1, 'replaced', 'DE', '2024-01-01'), (5, 'new', 'GB', NULL)");
            statement.executeUpdate("REPLACE customers SET id = 6, name = 'replace set'");
            statement.executeUpdate("INSERT INTO customers VALUES (2, 'dup', NULL, NULL) ON DUPLICATE KEY UPDATE name = 'odku'");
            assertThatThrownBy(() -> statement.executeUpdate("INSERT INTO customers VALUES (3, 'x', NULL, NULL) ON DUPLICATE KEY UPDATE id = 7"))
                    .isInstanceOf(SQLException.class).hasMessageContaining("changing the shard key shop.customers.id")
                    .extracting(e -> ((SQLException) e).getErrorCode()).isEqualTo(1235);
            assertThatThrownBy(() -> statement.executeUpdate("INSERT INTO customers VALUES (8, 'short')"))
                    .isInstanceOf(SQLException.class).hasMessageContaining("Column count doesn't match value count at row 1")
                    .extracting(e -> ((SQLException) e).getErrorCode()).isEqualTo(1136);
        }
        try (Connection connection = client("useServerPrepStmts=true");
             PreparedStatement insert = connection.prepareStatement("INSERT INTO customers VALUES (?, ?, ?, ?)");
             PreparedStatement odku = connection.prepareStatement("INSERT INTO orders VALUES (?, ?, ?, ?, ?) ON DUPLICATE KEY UPDATE amount = ?")) {
            for (long id = 10; id < 14; id++) {
                insert.setLong(1, id);
                insert.setString(2, "prepared " + id);
                insert.setString(3, "JP");
                insert.setNull(4, java.sql.Types.DATE);
                assertThat(insert.executeUpdate()).isEqualTo(1);
            }
            for (int round = 0; round < 2; round++) {
                odku.setLong(1, 100);
                odku.setLong(2, 11);
                odku.setBigDecimal(3, new java.math.BigDecimal("1.25"));
                odku.setString(4, "new");
                odku.setString(5, "2024-05-01 10:00:00");
                odku.setBigDecimal(6, new java.math.BigDecimal("9.75"));
                odku.executeUpdate();
            }
        }
        assertOnShard("customers", "id", 1, "replaced");
        assertOnShard("customers", "id", 2, "odku");
        assertOnShard("customers", "id", 3, "c");
        assertOnShard("customers", "id", 4, "set form");
        assertOnShard("customers", "id", 5, "new");
        assertOnShard("customers", "id", 6, "replace set");
        for (long id = 10; id < 14; id++) {
            assertOnShard("customers", "id", id, "prepared " + id);
        }
        assertThat(primaries.get(shardOf(11)).queryString("SELECT amount FROM shop.orders WHERE id = 100")).isEqualTo("9.75");
        assertThat(primaries.get(shardOf(1)).queryString("SELECT name FROM shop.customers WHERE id = 1")).isEqualTo("replaced");
    }

    /**
     * Loaders' batches without a column list: PyMySQL's executemany and MySQL Connector/J's rewritten batch both
     * send {@code INSERT INTO customers VALUES (...),(...)}, each row of which must land on its shard.
     */
    @Test
    @Order(2)
    void batchesOfPyMySqlAndMySqlConnectorJWithoutAColumnListLandOnTheirShards() throws Exception {
        String script = """
                import pymysql, sys
                c = pymysql.connect(host='127.0.0.1', port=int(sys.argv[1]), user='app', password='app', database='shop', autocommit=True)
                cur = c.cursor()
                print(cur.executemany("INSERT INTO customers VALUES (%s, %s, %s, %s)",
                                      [(i, 'py %d' % i, 'NZ', '2024-02-29') for i in range(20, 60)]))
                """;
        Cli.Result result = Cli.run(List.of("/usr/bin/python3", "-c", script, Integer.toString(proxy.port())), null, 120);
        assertThat(result.status()).as(result.stderr()).isZero();
        assertThat(result.stdout()).isEqualTo("40\n");
        try (Connection connection = proxy.mysql("shop", "rewriteBatchedStatements=true");
             PreparedStatement insert = connection.prepareStatement("INSERT INTO customers VALUES (?, ?, ?, ?)")) {
            for (long id = 60; id < 100; id++) {
                insert.setLong(1, id);
                insert.setString(2, "batch " + id);
                insert.setString(3, "AU");
                insert.setString(4, "2024-03-01");
                insert.addBatch();
            }
            insert.executeBatch();
        }
        for (long id = 20; id < 100; id++) {
            assertOnShard("customers", "id", id, (id < 60 ? "py " : "batch ") + id);
        }
    }

    /** The row of {@code table} whose {@code key} is {@code value} is on its key's shard only, with {@code name}. */
    private void assertOnShard(String table, String key, long value, String name) {
        String home = shardOf(value);
        for (String shard : SHARDS) {
            String found = primaries.get(shard).queryString("SELECT name FROM shop." + table + " WHERE " + key + " = " + value);
            assertThat(found).as("%s %s = %d on shard %s (home %s)", table, key, value, shard, home).isEqualTo(shard.equals(home) ? name : null);
        }
    }

    @Test
    @Order(3)
    void aTableCreatedAndAlteredThroughTheProxyTakesAnInsertWithItsNewColumnsAtOnce() throws Exception {
        try (Connection connection = client(""); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE notes (id BIGINT PRIMARY KEY, body VARCHAR(64))");
            statement.executeUpdate("INSERT INTO notes VALUES (1, 'two columns'), (2, 'two columns')");
            statement.execute("SET SESSION shardgate_allow_blocking_ddl = ON"); // a MyRocks shard adds a column with a copy
            statement.execute("ALTER TABLE notes ADD COLUMN author VARCHAR(32)");
            statement.executeUpdate("INSERT INTO notes VALUES (3, 'three columns', 'me'), (4, 'three columns', 'you')");
            assertThatThrownBy(() -> statement.executeUpdate("INSERT INTO notes VALUES (5, 'the old count')"))
                    .isInstanceOf(SQLException.class).extracting(e -> ((SQLException) e).getErrorCode()).isEqualTo(1136);
        }
        for (long id = 1; id <= 4; id++) {
            assertThat(primaries.get(shardOf(id)).queryString("SELECT body FROM shop.notes WHERE id = " + id)).isNotNull();
        }
        assertThat(primaries.get(shardOf(4)).queryString("SELECT author FROM shop.notes WHERE id = 4")).isEqualTo("you");
    }

    @Test
    @Order(4)
    void aDumpOfAnUnshardedServerLoadsThroughTheMariadbCliEveryRowOnItsShard() throws Exception {
        List<String> load = new ArrayList<>();
        ShopData.customers().stream().filter(c -> c.id() > 100).forEach(c -> load.add(c.values()));
        List<String> statements = new ArrayList<>(ShopData.multiRowInserts("shop.customers", "(id, name, country, created)",
                load, row -> row, 500));
        List<String> orders = ShopData.orders().stream().filter(o -> o.customerId() > 100)
                .map(o -> o.valuesWithId(Long.toString(ShopData.EXPLICIT_ORDER_ID_BASE + o.ordinal()))).toList();
        statements.addAll(ShopData.multiRowInserts("shop.orders", "(id, customer_id, amount, status, placed)", orders, row -> row, 500));
        statements.add("INSERT INTO shop.countries VALUES ('DE', 'Germany'), ('FR', 'France'), ('NZ', 'New Zealand')");
        long begin = System.nanoTime();
        oracle.execute(statements.toArray(String[]::new));
        long oracleLoaded = System.nanoTime();
        Path dump = Files.createTempFile("shop-dump", ".sql");
        try {
            Cli.Result dumped = Cli.run(List.of("mariadb-dump", "-h127.0.0.1", "-P" + oracle.port(), "-u" + topology.accounts().user(),
                    "-p" + topology.accounts().password(), "--no-create-info",
                    // Many rows per INSERT, as by default (--skip-extended-insert=false reads as --skip-extended-insert).
                    "--extended-insert",
                    // The dump's own LOCK TABLES and DISABLE KEYS, as mariadb-dump writes them by default (LockTablesIT has more).
                    "shop", "customers", "orders", "countries"), null, 120);
            assertThat(dumped.status()).as("mariadb-dump: %s", dumped.stderr()).isZero();
            assertThat(dumped.stdout()).contains("INSERT INTO `customers` VALUES\n(101,");
            assertThat(dumped.stdout().lines().filter(line -> line.startsWith("INSERT INTO `orders` VALUES")).count())
                    .as("extended inserts: a few statements of many rows").isBetween(1L, 50L);
            Files.writeString(dump, dumped.stdout());
            long dumpedAt = System.nanoTime();
            Cli.Result loaded = Cli.run(Cli.mariadb(proxy.port(), "shop"), dumped.stdout(), 300);
            System.out.printf("SchemaTrackingIT: %d rows loaded into the oracle in %.2f s, dumped (%d KB) in %.2f s,"
                    + " loaded through Shardgate with the mariadb CLI in %.2f s%n", statements.size() > 0 ? load.size() + orders.size() + 3 : 0,
                    (oracleLoaded - begin) / 1e9, dumped.stdout().length() / 1024, (dumpedAt - oracleLoaded) / 1e9,
                    (System.nanoTime() - dumpedAt) / 1e9);
            assertThat(loaded.status()).as("mariadb < dump.sql through Shardgate: %s", loaded.stderr()).isZero();
        } finally {
            Files.deleteIfExists(dump);
        }
        String customerRow = "CRC32(CONCAT_WS('|', id, name, IFNULL(country, '-'), IFNULL(created, '-')))";
        String orderRow = "CRC32(CONCAT_WS('|', id, customer_id, amount, status, placed))";
        assertRowsOnTheirShards("customers", "id", customerRow, "id > 100");
        assertRowsOnTheirShards("orders", "customer_id", orderRow, "customer_id > 100");
        for (String shard : SHARDS) {
            assertThat(primaries.get(shard).queryString("SELECT GROUP_CONCAT(code ORDER BY code) FROM shop.countries"))
                    .as("reference rows on %s", shard).isEqualTo("DE,FR,NZ");
        }
    }

    /** Per shard, the number of rows and the sum of their checksums equal those of the oracle's rows whose key maps there. */
    private void assertRowsOnTheirShards(String table, String key, String checksum, String where) throws SQLException {
        Map<String, long[]> expected = new TreeMap<>();
        SHARDS.forEach(shard -> expected.put(shard, new long[2]));
        try (Connection connection = oracle.connect(); Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT " + key + ", " + checksum + " FROM shop." + table + " WHERE " + where)) {
            while (rows.next()) {
                long[] sums = expected.get(shardOf(rows.getLong(1)));
                sums[0]++;
                sums[1] += rows.getLong(2);
            }
        }
        assertThat(expected.values().stream().mapToLong(s -> s[0]).sum()).as("%s rows in the oracle", table).isGreaterThan(1000);
        for (String shard : SHARDS) {
            String actual = primaries.get(shard).queryString("SELECT CONCAT(COUNT(*), ' ', IFNULL(SUM(" + checksum + "), 0)) FROM shop."
                    + table + " WHERE " + where);
            long[] sums = expected.get(shard);
            assertThat(actual).as("rows and checksum of %s on %s", table, shard).isEqualTo(sums[0] + " " + sums[1]);
        }
    }

    @Test
    @Order(5)
    void aShardAlteredBehindTheProxysBackIsReportedAndItsImplicitColumnListRefused() throws Exception {
        primaries.get("s1").execute("ALTER TABLE shop.notes ADD COLUMN sneaky INT");
        HttpClient http = HttpClient.newHttpClient();
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + proxy.adminPort() + "/api/v1/schema"))
                .header("Authorization", "Bearer " + ProxyFixture.ADMIN_TOKEN).build();
        long deadline = System.nanoTime() + 30_000_000_000L;
        String report = "";
        while (!report.contains("\"status\" : \"differs\"") && System.nanoTime() < deadline) {
            report = http.send(request, HttpResponse.BodyHandlers.ofString()).body();
            if (!report.contains("\"status\" : \"differs\"")) {
                Thread.sleep(50);
            }
        }
        assertThat(report).contains("\"status\" : \"differs\"", "extra column sneaky int(11)");
        try (Connection connection = client(""); Statement statement = connection.createStatement()) {
            QueryResult show = QueryResult.run(connection, "SHOW SHARDGATE SCHEMA");
            assertThat(show.labels()).containsExactly("schema", "table", "shard", "status", "columns", "detail");
            assertThat(show.rows()).as("SHOW SHARDGATE SCHEMA, as the admin API").anySatisfy(row -> {
                assertThat(row.subList(1, 4)).containsExactly("notes", "s1", "differs");
                assertThat(row.get(5)).contains("extra column sneaky int(11)");
            });
            assertThatThrownBy(() -> statement.executeUpdate("INSERT INTO notes VALUES (9, 'x', 'y')"))
                    .isInstanceOf(SQLException.class).hasMessageContaining("shards disagree on its columns")
                    .extracting(e -> ((SQLException) e).getErrorCode()).isEqualTo(1235);
            assertThat(statement.executeUpdate("INSERT INTO notes (id, body) VALUES (9, 'named columns still work')")).isEqualTo(1);
        }
    }
}
