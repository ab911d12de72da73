package io.shardgate.it;

import io.shardgate.it.ShopData.Customer;
import io.shardgate.it.ShopData.OrderRow;
import io.shardgate.it.ShopLoader.Loaded;
import io.shardgate.it.ShopQueries.Client;
import io.shardgate.replication.topology.Node;
import io.shardgate.replication.topology.Topology;
import io.shardgate.replication.topology.TopologySpec;
import io.shardgate.storage.Engine;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.LongStream;

import static io.shardgate.it.ShopData.multiRowInserts;
import static io.shardgate.it.ShopData.shardOf;
import static io.shardgate.it.ShopLoader.CUSTOMER_COLUMNS;
import static io.shardgate.it.ShopLoader.ORDER_COLUMNS;
import static io.shardgate.it.ShopLoader.bind;
import static io.shardgate.it.ShopQueries.QUERIES;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Acceptance tests of sharding (issue #6) on two shards, s0 on InnoDB and s1 on MyRocks, each a
 * primary and a replica with real GTID replication, configured as docs/sharding.md describes. A third,
 * standalone server ({@code ref}, not in the proxy's config) is the oracle: one unsharded MariaDB
 * loaded with the same rows, whose answers Shardgate's must equal. Placement is checked by reading
 * the shard primaries directly.
 *
 * <p>The data is loaded through Shardgate once, on first use ({@link #loaded()}); tests that need it
 * call that, so each test reports its own failure even when the load itself fails.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ShardingIT {
    private static final Duration CATCH_UP = Duration.ofSeconds(60);
    private static final List<String> SHARDS = List.of("s0", "s1");
    /** The configuration, plus {@code events} (natively partitioned on each shard) and the DDL test's t2 and t3. */
    private static final String CONFIG = """
            schemas:
              - name: shop
                tables:
                  customers: { shard_key: id, vindex: hash }
                  orders:    { shard_key: customer_id, vindex: hash }
                  events:    { shard_key: id, vindex: hash }
                  t2:        { shard_key: id, vindex: hash }
                  t3:        { shard_key: id, vindex: hash }
                  countries: { type: reference }
                  settings:  { type: unsharded, shard: s0 }
                sequences:
                  orders.id: { shard: s0 }
            transactions: { cross_shard: xa }
            """;

    private Topology topology;
    private Map<String, Node> primaries;
    private Node oracle;
    private ProxyFixture proxy;
    private Loaded loaded;
    private RuntimeException loadFailure;
    private boolean oracleLoaded;

    @BeforeAll
    void start() {
        long begin = System.nanoTime();
        topology = Topology.start(TopologySpec.builder()
                .shard("s0", Engine.INNODB, 1)
                .shard("s1", Engine.ROCKSDB, 1)
                .shard("ref", Engine.INNODB, 0)
                .build());
        primaries = new LinkedHashMap<>();
        SHARDS.forEach(name -> primaries.put(name, topology.shard(name).primary()));
        oracle = topology.shard("ref").primary();
        for (Node node : List.of(primaries.get("s0"), primaries.get("s1"), oracle)) {
            node.execute(ShopData.DDL);
        }
        assertThat(primaries.get("s0").queryString(engineOf("orders"))).isEqualTo("InnoDB");
        assertThat(primaries.get("s1").queryString(engineOf("orders"))).isEqualTo("ROCKSDB");
        assertThat(oracle.queryString(engineOf("orders"))).isEqualTo("InnoDB");
        loadEventsDirectly();
        topology.awaitReplication(CATCH_UP);

        proxy = ProxyFixture.start(topology, ProxyFixture.HALVES, CONFIG);
        System.out.printf("ShardingIT: 2 shards x (primary + replica), an oracle and Shardgate up in %.2f s%n",
                (System.nanoTime() - begin) / 1e9);
    }

    @AfterAll
    void stop() {
        ProxyFixture.stop(proxy, topology);
    }

    @Test
    @Order(1)
    void insertsThroughShardgatePutEveryRowOnTheShardOfItsKey() {
        // The test's own placement function agrees with the worked examples of docs/sharding.md.
        assertThat(List.of(shardOf(5), shardOf(1), shardOf(-7), shardOf(2), shardOf(3), shardOf(4)))
                .containsExactly("s0", "s1", "s0", "s0", "s0", "s1");
        assertPlacement(loaded());
    }

    /**
     * Every customer on exactly the shard of its id, every order on exactly its customer's shard,
     * all with the values inserted; order ids unique across shards; the split per shard; reference
     * rows on every shard and unsharded rows on their own.
     */
    static void assertPlacement(Loaded data) {
        List<Customer> customers = ShopData.customers();
        List<OrderRow> orders = ShopData.orders();
        SoftAssertions softly = new SoftAssertions();

        Map<Long, List<String>> shardsOfCustomer = new TreeMap<>();
        Map<Long, Customer> storedCustomers = new HashMap<>();
        data.customers().forEach((shard, rows) -> rows.forEach(row -> {
            shardsOfCustomer.computeIfAbsent(row.id(), id -> new ArrayList<>()).add(shard);
            storedCustomers.put(row.id(), row);
        }));
        softly.assertThat(shardsOfCustomer.keySet()).as("customer ids found on the shard primaries")
                .containsExactlyElementsOf(LongStream.rangeClosed(1, ShopData.CUSTOMERS).boxed().toList());
        softly.assertThat(misplaced(shardsOfCustomer)).as("customers not on exactly their key's shard (id: shards)").isEmpty();
        softly.assertThat(customers.stream().filter(c -> !c.equals(storedCustomers.get(c.id()))).limit(5).toList())
                .as("customers stored with other values than inserted").isEmpty();

        Map<Integer, List<String>> shardsOfOrder = new TreeMap<>();
        Map<Long, Integer> timesId = new HashMap<>();
        List<String> wrongOrders = new ArrayList<>();
        data.orders().forEach((shard, rows) -> rows.forEach(row -> {
            timesId.merge(row.id(), 1, Integer::sum);
            if (row.ordinal() < 0) {
                wrongOrders.add(shard + ": unexpected row " + row);
                return;
            }
            OrderRow expected = orders.get(row.ordinal());
            shardsOfOrder.computeIfAbsent(row.ordinal(), n -> new ArrayList<>()).add(shard);
            if (row.customerId() != expected.customerId() || !row.amount().equals(expected.amount())
                    || !row.status().equals(expected.status()) || (!expected.fromSequence() && !row.id().equals(expected.id()))) {
                wrongOrders.add(shard + ": " + row + " (inserted " + expected + ")");
            }
            List<String> customerShards = shardsOfCustomer.getOrDefault(row.customerId(), List.of());
            if (!shard.equals(shardOf(row.customerId())) || !customerShards.equals(List.of(shard))) {
                wrongOrders.add(shard + ": order " + row.id() + " of customer " + row.customerId() + ", whose key is on "
                        + shardOf(row.customerId()) + " and whose row is on " + customerShards);
            }
        }));
        softly.assertThat(wrongOrders.stream().limit(10).toList()).as("orders with wrong values or not on their customer's shard").isEmpty();
        softly.assertThat(data.orders().values().stream().mapToInt(List::size).sum()).as("orders on the shard primaries")
                .isEqualTo(ShopData.ORDERS);
        softly.assertThat(shardsOfOrder.entrySet().stream().filter(e -> e.getValue().size() != 1).limit(10).toList())
                .as("orders (by ordinal) found on more than one shard").isEmpty();
        softly.assertThat(orders.stream().filter(o -> !shardsOfOrder.containsKey(o.ordinal())).limit(10).toList())
                .as("inserted orders found on no shard").isEmpty();
        softly.assertThat(timesId.entrySet().stream().filter(e -> e.getValue() > 1).limit(10).toList())
                .as("order ids used more than once across the shards").isEmpty();

        Map<Integer, Long> idByOrdinal = data.orderIds();
        List<Long> sequenceIds = orders.stream().filter(OrderRow::fromSequence).map(o -> idByOrdinal.get(o.ordinal())).toList();
        softly.assertThat(sequenceIds).as("ids drawn from the orders.id sequence").hasSize(ShopData.ORDERS / 20)
                .doesNotContainNull().doesNotHaveDuplicates().allMatch(id -> id > 0);
        softly.assertThat(data.reportedIds()).as("generated keys reported to the client for single-row inserts without an id")
                .hasSize(150);
        data.reportedIds().forEach((ordinal, id) -> softly.assertThat(id)
                .as("generated key of order %d (getGeneratedKeys) against the id stored on its shard", ordinal)
                .isEqualTo(idByOrdinal.get(ordinal)));

        // The balance the acceptance asks for, and the exact split the documented hash gives.
        Map<String, Long> expectedCustomers = customers.stream().collect(Collectors.groupingBy(c -> shardOf(c.id()), Collectors.counting()));
        Map<String, Long> expectedOrders = orders.stream().collect(Collectors.groupingBy(o -> shardOf(o.customerId()), Collectors.counting()));
        for (String shard : SHARDS) {
            softly.assertThat((long) data.customers().get(shard).size()).as("customers on %s", shard).isEqualTo(expectedCustomers.get(shard));
            softly.assertThat((long) data.orders().get(shard).size()).as("orders on %s", shard).isEqualTo(expectedOrders.get(shard));
        }
        softly.assertThat(withinFifteenPercent(data.customers().get("s0").size(), data.customers().get("s1").size()))
                .as("customers per shard within 15%%: s0 %d, s1 %d", data.customers().get("s0").size(), data.customers().get("s1").size())
                .isTrue();
        softly.assertThat(withinFifteenPercent(data.orders().get("s0").size(), data.orders().get("s1").size()))
                .as("orders per shard within 15%%: s0 %d, s1 %d", data.orders().get("s0").size(), data.orders().get("s1").size())
                .isTrue();

        // A reference table is written to every shard; an unsharded table only to its own.
        List<List<String>> countries = ShopData.COUNTRIES.stream().map(c -> List.of(c.code(), c.name())).toList();
        softly.assertThat(data.countries().get("s0").rows()).as("countries on s0").isEqualTo(countries);
        softly.assertThat(data.countries().get("s1").rows()).as("countries on s1").isEqualTo(countries);
        softly.assertThat(data.settings().get("s0").rows()).as("settings on s0")
                .isEqualTo(ShopData.SETTINGS.stream().map(s -> List.of(s.key(), s.value())).toList());
        softly.assertThat(data.settings().get("s1").rows()).as("settings on s1 (the table is pinned to s0)").isEmpty();
        softly.assertAll();
    }

    @Test
    @Order(2)
    void queriesAnswerWhatOneUnshardedServerAnswers() throws Exception {
        assertThat(QUERIES).hasSizeGreaterThanOrEqualTo(40);
        loadedWithOracle();
        Map<Client, Connection> viaShardgate = new EnumMap<>(Client.class);
        Map<Client, Connection> onOracle = new EnumMap<>(Client.class);
        try {
            for (Client client : Client.values()) {
                viaShardgate.put(client, DriverManager.getConnection(client.url("127.0.0.1:" + proxy.port()),
                        ProxyFixture.USER, ProxyFixture.PASSWORD));
                onOracle.put(client, DriverManager.getConnection(client.url(oracle.address()),
                        topology.accounts().user(), topology.accounts().password()));
            }
            List<String> failures = new ArrayList<>(ShopQueries.compare(QUERIES, onOracle, viaShardgate));
            failures.addAll(ShopQueries.comparePyMySql(QUERIES,
                    new ShopQueries.Side(oracle.host(), oracle.port(), topology.accounts().user(),
                            topology.accounts().password(), "shop"),
                    new ShopQueries.Side("127.0.0.1", proxy.port(), ProxyFixture.USER, ProxyFixture.PASSWORD, "shop")));
            assertThat(failures).as("queries answered differently through Shardgate than by the oracle (%d queries, each through"
                    + " %d JDBC clients and PyMySQL)", QUERIES.size(), Client.values().length).isEmpty();
        }
        finally {
            closeAll(viaShardgate.values());
            closeAll(onOracle.values());
        }
    }

    @Test
    @Order(3)
    void aJoinAcrossShardsAnswersAsOneServerAndALockingOneIsRefusedNamingTheConstruct() throws SQLException {
        loadedWithOracle();
        String join = "SELECT o.id, c.name FROM orders o JOIN customers c ON c.id = o.amount ORDER BY o.id";
        List<List<String>> expected;
        try (Connection c = oracleConnection(Client.MARIADB_TEXT)) {
            expected = QueryResult.run(c, join).rows();
            assertThat(expected).as("rows one server finds for the join").isNotEmpty();
        }
        for (Client client : List.of(Client.MARIADB_TEXT, Client.MARIADB_PREPARED, Client.MYSQL_TEXT)) {
            try (Connection c = shardgate(client)) {
                assertThat(QueryResult.run(c, join, List.of(), client.prepared()).rows()).as("%s: the join's rows", client)
                        .isEqualTo(expected);
                // A copy's rows cannot be locked: a locking read across shards stays refused, in words.
                assertError(() -> QueryResult.run(c, join + " FOR UPDATE", List.of(), client.prepared()), 1235, "42000",
                        "Shardgate does not support a join or subquery across shards: "
                                + "shop.orders o and shop.customers c are not joined on their shard keys (o.customer_id = c.id)");
                // The session is still usable after the ERR.
                assertThat(QueryResult.run(c, "SELECT COUNT(*) FROM customers WHERE id = 5").rows()).containsExactly(List.of("1"));
            }
        }
    }

    @Test
    @Order(4)
    void partitionSelectionNamesShardsOrPassesNativePartitionsThrough() throws SQLException {
        loaded();
        try (Connection c = shardgate(Client.MARIADB_TEXT); Connection prepared = shardgate(Client.MYSQL_PREPARED);
             Connection s0 = direct(primaries.get("s0")); Connection s1 = direct(primaries.get("s1"));
             Connection one = oracleConnection(Client.MARIADB_TEXT)) {
            // Shard names restrict the statement to those shards.
            QueryResult onS1 = QueryResult.run(s1, "SELECT * FROM orders ORDER BY id");
            assertThat(onS1.rows()).hasSizeBetween(1, ShopData.ORDERS - 1);
            assertThat(onS1.differenceFrom(QueryResult.run(c, "SELECT * FROM orders PARTITION (s1) ORDER BY id"), true))
                    .as("orders PARTITION (s1) against s1's primary").isNull();
            assertThat(QueryResult.run(prepared, "SELECT COUNT(*) FROM orders PARTITION (S0)", List.of(), true).rows())
                    .as("orders PARTITION (S0), prepared, names ignore case")
                    .isEqualTo(QueryResult.run(s0, "SELECT COUNT(*) FROM orders").rows());
            assertThat(QueryResult.run(c, "SELECT COUNT(*) FROM orders PARTITION (s0, s1)").rows())
                    .containsExactly(List.of(Integer.toString(ShopData.ORDERS)));

            // A row outside the named shards: ERR 1748, as MariaDB answers for a row outside named partitions.
            assertError(() -> update(one, "INSERT INTO events PARTITION (p0) (id, kind) VALUES (5000, 'x')"),
                    1748, "HY000", "Found a row not matching the given partition set");
            long orderId = 900_000_001L;
            assertThat(shardOf(1)).isEqualTo("s1");
            assertError(() -> update(c, "INSERT INTO orders PARTITION (s0) " + ORDER_COLUMNS
                            + " VALUES (" + orderId + ", 1, 9.99, 'new', '2024-01-01 00:00:00')"),
                    1748, "HY000", "Found a row not matching the given partition set");
            long onS0 = ShopData.firstKeyOn("s0", 10_001);
            long onS1Key = ShopData.firstKeyOn("s1", 10_001);
            assertError(() -> {
                try (PreparedStatement insert = prepared.prepareStatement("INSERT INTO customers PARTITION (s1) " + CUSTOMER_COLUMNS
                        + " VALUES (?, ?, ?, ?)")) {
                    bind(insert, 1, onS0, "wrong shard", "DE", LocalDate.of(2024, 1, 1));
                    insert.executeUpdate();
                }
            }, 1748, "HY000", "Found a row not matching the given partition set");
            assertError(() -> update(c, "INSERT INTO customers PARTITION (s0) (id, name) VALUES ("
                    + onS0 + ", 'fits'), (" + onS1Key + ", 'does not fit')"), 1748, "HY000", "Found a row not matching the given partition set");
            for (Connection shard : List.of(s0, s1)) {
                assertThat(QueryResult.run(shard, "SELECT COUNT(*) FROM orders WHERE id = " + orderId).rows())
                        .containsExactly(List.of("0"));
                assertThat(QueryResult.run(shard, "SELECT COUNT(*) FROM customers WHERE id IN (" + onS0 + ", " + onS1Key + ")").rows())
                        .as("no row of a refused INSERT is written").containsExactly(List.of("0"));
            }

            // Names that are not shards are the table's native partitions on every shard.
            QueryResult p0 = QueryResult.run(one, "SELECT id, kind FROM events PARTITION (p0) ORDER BY id");
            assertThat(p0.rows()).hasSize(999);
            assertThat(p0.differenceFrom(QueryResult.run(c, "SELECT id, kind FROM events PARTITION (p0) ORDER BY id"), true))
                    .as("events PARTITION (p0) against the oracle").isNull();
            assertThat(QueryResult.run(prepared, "SELECT COUNT(*) FROM events PARTITION (p1)", List.of(), true).rows())
                    .containsExactly(List.of(Integer.toString(ShopData.EVENTS - 999)));

            // A name that is neither: the backend's ERR 1735, relayed, as one server answers it.
            assertError(() -> QueryResult.run(one, "SELECT * FROM events PARTITION (p9)"), 1735, "HY000",
                    "Unknown partition 'p9' in table 'events'");
            assertError(() -> QueryResult.run(c, "SELECT * FROM events PARTITION (p9)"), 1735, "HY000",
                    "Unknown partition 'p9' in table 'events'");

            // Writes: a shard name places the row on that shard; a native name passes through to the key's shard.
            long eventOnS1 = ShopData.firstKeyOn("s1", 5001);
            long eventInP1 = ShopData.firstKeyOn("s0", 5001);
            assertThat(update(c, "INSERT INTO events PARTITION (s1) (id, kind) VALUES (" + eventOnS1 + ", 'buy')"))
                    .isEqualTo(1);
            assertThat(update(c, "INSERT INTO events PARTITION (p1) (id, kind) VALUES (" + eventInP1 + ", 'view')"))
                    .isEqualTo(1);
            assertThat(QueryResult.run(s1, "SELECT id, kind FROM events WHERE id IN (" + eventOnS1 + ", " + eventInP1 + ")").rows())
                    .containsExactly(List.of(Long.toString(eventOnS1), "buy"));
            assertThat(QueryResult.run(s0, "SELECT id, kind FROM events PARTITION (p1) WHERE id IN (" + eventOnS1 + ", " + eventInP1 + ")")
                    .rows()).containsExactly(List.of(Long.toString(eventInP1), "view"));
        }
    }

    @Test
    @Order(5)
    void anUpdateOfTheShardKeyIsRefusedAndChangesNothing() throws SQLException {
        loadedWithOracle();
        try (Connection c = shardgate(Client.MARIADB_TEXT); Connection prepared = shardgate(Client.MARIADB_PREPARED);
             Connection one = oracleConnection(Client.MARIADB_TEXT)) {
            assertError(() -> update(c, "UPDATE customers SET id = 5000 WHERE id = 4"), 1235, "42000",
                    "Shardgate does not support changing the shard key shop.customers.id of a row: delete the row and insert it with the new key");
            assertError(() -> {
                try (PreparedStatement update = prepared.prepareStatement("UPDATE orders SET customer_id = ? WHERE customer_id = ?")) {
                    bind(update, 1, 2L, 4L);
                    update.executeUpdate();
                }
            }, 1235, "42000",
                    "Shardgate does not support changing the shard key shop.orders.customer_id of a row: delete the row and insert it with the new key");

            for (String read : List.of("SELECT * FROM customers WHERE id IN (4, 5000) ORDER BY id",
                    "SELECT * FROM orders WHERE customer_id IN (2, 4) ORDER BY id")) {
                QueryResult expected = QueryResult.run(one, read);
                assertThat(expected.rows()).isNotEmpty();
                assertThat(expected.differenceFrom(QueryResult.run(c, read), true)).as(read).isNull();
            }
            for (Node primary : primaries.values()) {
                assertThat(primary.queryString("SELECT COUNT(*) FROM shop.customers WHERE id = 5000")).as(primary.name()).isEqualTo("0");
            }
            assertThat(primaries.get(shardOf(4)).queryString("SELECT name FROM shop.customers WHERE id = 4"))
                    .isEqualTo(oracle.queryString("SELECT name FROM shop.customers WHERE id = 4"));
        }
    }

    @Test
    @Order(6)
    void catalogStatementsShowEachTableOnce() throws SQLException {
        try (Connection c = shardgate(Client.MARIADB_TEXT); Connection s0 = direct(primaries.get("s0"));
             Connection one = oracleConnection(Client.MARIADB_TEXT)) {
            QueryResult tables = QueryResult.run(c, "SHOW TABLES");
            assertThat(tables.column(0)).as("SHOW TABLES").doesNotHaveDuplicates().containsAll(ShopData.TABLES);
            assertThat(QueryResult.run(s0, "SHOW TABLES").differenceFrom(tables, false)).as("SHOW TABLES against s0's").isNull();

            QueryResult describe = QueryResult.run(c, "DESCRIBE orders");
            assertThat(describe.column(0)).containsExactly("id", "customer_id", "amount", "status", "placed");
            assertThat(QueryResult.run(one, "DESCRIBE orders").differenceFrom(describe, true)).as("DESCRIBE orders").isNull();

            QueryResult create = QueryResult.run(c, "SHOW CREATE TABLE orders");
            assertThat(create.rows()).hasSize(1);
            assertThat(create.rows().get(0).get(1)).startsWith("CREATE TABLE `orders`").contains("ENGINE=InnoDB");
            assertThat(QueryResult.run(s0, "SHOW CREATE TABLE orders").differenceFrom(create, true)).as("SHOW CREATE TABLE").isNull();

            QueryResult count = QueryResult.run(c, "SELECT COUNT(*) FROM information_schema.TABLES WHERE table_schema = 'shop'");
            assertThat(count.rows()).isEqualTo(QueryResult.run(s0,
                    "SELECT COUNT(*) FROM information_schema.TABLES WHERE table_schema = 'shop'").rows());
            assertThat(Integer.parseInt(count.rows().get(0).get(0))).isGreaterThanOrEqualTo(ShopData.TABLES.size());
            QueryResult names = QueryResult.run(c, "SELECT TABLE_NAME FROM information_schema.TABLES WHERE table_schema = 'shop'");
            assertThat(names.column(0)).doesNotHaveDuplicates().containsAll(ShopData.TABLES);
        }
    }

    @Test
    @Order(7)
    void explainShardgateShowsThePlanWithoutRunningIt() throws SQLException {
        loaded();
        try (Connection c = shardgate(Client.MARIADB_TEXT)) {
            assertThat(shardOf(5)).isEqualTo("s0");
            QueryResult point = QueryResult.run(c, "EXPLAIN SHARDGATE SELECT * FROM orders WHERE customer_id = 5");
            assertThat(point.labels()).containsExactly("plan");
            assertThat(point.column(0)).containsExactly(
                    "Route BY_KEY shop.orders shards=[s0] role=REPLICA where orders.customer_id = 5 hash(integer)",
                    "  sql: SELECT * FROM orders WHERE customer_id = 5");

            QueryResult scatter = QueryResult.run(c, "EXPLAIN SHARDGATE SELECT id, amount FROM orders ORDER BY amount DESC, id LIMIT 10 OFFSET 35");
            assertThat(scatter.column(0)).containsExactly(
                    "LimitOffset(offset 35, count 10)",
                    "  MergeSort[#1 DESC, #0 ASC]",
                    "    Route SCATTER shop.orders shards=[s0, s1] role=REPLICA",
                    "      sql: SELECT id, amount FROM orders ORDER BY amount DESC, id LIMIT 45");

            String before = primaries.get("s0").queryString("SELECT COUNT(*) FROM shop.orders WHERE customer_id = 5");
            assertThat(Integer.parseInt(before)).isPositive();
            QueryResult delete = QueryResult.run(c, "EXPLAIN SHARDGATE DELETE FROM orders WHERE customer_id = 5");
            assertThat(delete.column(0)).containsExactly(
                    "Route BY_KEY shop.orders shards=[s0] role=PRIMARY where orders.customer_id = 5 hash(integer)",
                    "  sql: DELETE FROM orders WHERE customer_id = 5");
            assertThat(primaries.get("s0").queryString("SELECT COUNT(*) FROM shop.orders WHERE customer_id = 5"))
                    .as("orders of customer 5 after EXPLAIN SHARDGATE DELETE").isEqualTo(before);
        }
    }

    @Test
    @Order(8)
    void ddlRunsOnEveryShardAndNamesTheShardItFailedOn() throws SQLException {
        try (Connection c = shardgate(Client.MARIADB_TEXT); Statement statement = c.createStatement()) {
            statement.execute("CREATE TABLE shop.t2 (id BIGINT PRIMARY KEY, note VARCHAR(32))");
            topology.awaitReplication(CATCH_UP);
            for (String shard : SHARDS) {
                String engine = shard.equals("s0") ? "InnoDB" : "ROCKSDB";
                assertThat(topology.shard(shard).primary().queryString(engineOf("t2"))).as("t2 on %s's primary", shard).isEqualTo(engine);
                assertThat(topology.shard(shard).replica(0).queryString(engineOf("t2"))).as("t2 on %s's replica", shard).isEqualTo(engine);
            }

            // t3 exists on s1 only, so creating it succeeds on s0 and fails on s1.
            primaries.get("s1").execute("CREATE TABLE shop.t3 (id INT PRIMARY KEY)");
            SQLException partial = assertError(() -> statement.execute("CREATE TABLE t3 (id INT PRIMARY KEY)"), 1430, "HY000",
                    "The statement failed on shard(s) s1 and succeeded on s0: ");
            assertThat(partial.getMessage()).as("the shard's own error").contains("Table 't3' already exists");
            // Now it fails on every shard: that is no partial failure, so the client gets the server's own error.
            assertError(() -> statement.execute("CREATE TABLE t3 (id INT PRIMARY KEY)"), 1050, "42S01", "Table 't3' already exists");
            assertThat(primaries.get("s0").queryString(engineOf("t3"))).isEqualTo("InnoDB");
        }
    }

    /** Loads the data set through Shardgate on first use; a failed load fails every test that needs it. */
    private Loaded loaded() {
        if (loaded == null && loadFailure == null) {
            try {
                loaded = loadThroughShardgate();
            }
            catch (SQLException | RuntimeException e) {
                loadFailure = new IllegalStateException("loading the data set through Shardgate failed: " + e, e);
            }
        }
        if (loadFailure != null) {
            throw loadFailure;
        }
        return loaded;
    }

    /** {@link #loaded()}, and the oracle holding the same rows (orders with the ids the sequence gave them). */
    private Loaded loadedWithOracle() {
        Loaded data = loaded();
        if (!oracleLoaded) {
            oracle.execute(ShopLoader.fullDataSet(data.orderIds()));
            oracleLoaded = true;
        }
        return data;
    }

    /**
     * Inserts every row through Shardgate ({@link ShopLoader#insertDataSet}), then reads every shard
     * primary, and waits for the replicas.
     */
    private Loaded loadThroughShardgate() throws SQLException {
        long begin = System.nanoTime();
        Map<Integer, Long> reportedIds = ShopLoader.insertDataSet("127.0.0.1:" + proxy.port(), ProxyFixture.USER, ProxyFixture.PASSWORD);
        System.out.printf("ShardingIT: %d customers and %d orders inserted through Shardgate in %.2f s%n",
                ShopData.CUSTOMERS, ShopData.ORDERS, (System.nanoTime() - begin) / 1e9);
        Map<String, Connection> shards = new LinkedHashMap<>();
        try {
            for (String shard : SHARDS) {
                shards.put(shard, direct(primaries.get(shard)));
            }
            Loaded data = ShopLoader.readShards(shards, reportedIds);
            topology.awaitReplication(CATCH_UP);
            return data;
        }
        finally {
            closeAll(shards.values());
        }
    }

    /** Events 1 to 1500 written straight to the shard that owns each id, and all of them to the oracle. */
    @Test
    @Order(9)
    void killQueryStopsAStatementRunningOnEveryShard() throws Exception {
        loaded();
        try (Connection victim = proxy.mariadb("shop", ""); Statement sleeping = victim.createStatement();
             Connection killer = proxy.mariadb("shop", ""); Statement kill = killer.createStatement()) {
            long id;
            try (java.sql.ResultSet rows = sleeping.executeQuery("SELECT CONNECTION_ID()")) {
                assertThat(rows.next()).isTrue();
                id = rows.getLong(1);
            }
            java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newSingleThreadExecutor();
            try {
                long begin = System.nanoTime();
                // Customer 5 is on s0 and 1 on s1: both shards sleep 30 s, and the merge waits for both.
                java.util.concurrent.Future<String> slept = pool.submit(() -> {
                    try (java.sql.ResultSet rows = sleeping.executeQuery("SELECT MAX(SLEEP(30)) FROM customers WHERE id IN (5, 1)")) {
                        return rows.next() ? rows.getString(1) : "no row";
                    } catch (SQLException e) {
                        return "ERR " + e.getErrorCode();
                    }
                });
                long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
                while (!slept.isDone() && System.nanoTime() < deadline && SHARDS.stream().anyMatch(shard -> !"1".equals(
                        primaries.get(shard).queryString("SELECT COUNT(*) FROM information_schema.PROCESSLIST"
                                + " WHERE INFO LIKE 'SELECT MAX(SLEEP(30))%'")))) {
                    Thread.sleep(20);
                }
                assertThat(slept.isDone()).as("the statement is still running when KILL QUERY is sent").isFalse();
                kill.execute("KILL QUERY " + id);
                String outcome = slept.get(10, java.util.concurrent.TimeUnit.SECONDS);
                assertThat((System.nanoTime() - begin) / 1e9).as("seconds until the killed statement returned").isLessThan(15);
                // MariaDB ends a killed SLEEP with 1 (interrupted) or the statement with ERR 1317.
                assertThat(outcome).isIn("1", "ERR 1317");
            } finally {
                pool.shutdownNow();
            }
            try (java.sql.ResultSet rows = sleeping.executeQuery("SELECT COUNT(*) FROM customers")) {
                assertThat(rows.next()).isTrue();
            }
        }
    }

    @Test
    @Order(10)
    void stringsMergeUnderTheColumnsOwnCollationNotTheConnections() throws Exception {
        // A result's column definition carries the connection's collation (utf8mb4_general_ci) even for a
        // utf8mb4_bin column; merging under it would order 'a' before 'B' and fold 'zed' into 'ZED'.
        oracle.execute("ALTER TABLE shop.events MODIFY kind VARCHAR(16) COLLATE utf8mb4_bin");
        List<String> kinds = List.of("ZED", "zed", "Zed", "apple", "Apple", "B", "b");
        try (Connection c = proxy.mariadb("shop", ""); Statement s = c.createStatement()) {
            s.execute("SET SESSION shardgate_allow_blocking_ddl = ON");
            s.execute("ALTER TABLE events MODIFY kind VARCHAR(16) COLLATE utf8mb4_bin");
            for (int i = 0; i < kinds.size(); i++) {
                String insert = "INSERT INTO events (id, kind) VALUES (" + (900_001 + i) + ", '" + kinds.get(i) + "')";
                s.executeUpdate(insert);
                oracle.execute(insert.replace("INTO events", "INTO shop.events"));
            }
            assertThat(SHARDS.stream().filter(shard -> !"0".equals(primaries.get(shard).queryString(
                    "SELECT COUNT(*) FROM shop.events WHERE id > 900000")))).as("both shards hold some of the new kinds").hasSize(2);
            // Earlier tests wrote events through Shardgate only: compare the rows written here.
            for (String query : List.of("SELECT DISTINCT kind FROM events WHERE id > 900000 ORDER BY kind",
                    "SELECT kind, COUNT(*) FROM events WHERE id > 900000 GROUP BY kind ORDER BY kind",
                    "SELECT MIN(kind), MAX(kind) FROM events WHERE id > 900000",
                    "SELECT id, kind FROM events WHERE id > 900000 ORDER BY kind, id LIMIT 5")) {
                assertThat(rowsOf(s, query)).as(query).isEqualTo(rowsOf(oracle, query.replace("FROM events", "FROM shop.events")));
            }
        }
    }

    private static List<List<String>> rowsOf(Statement statement, String sql) throws SQLException {
        List<List<String>> rows = new ArrayList<>();
        try (java.sql.ResultSet result = statement.executeQuery(sql)) {
            int columns = result.getMetaData().getColumnCount();
            while (result.next()) {
                List<String> row = new ArrayList<>();
                for (int i = 1; i <= columns; i++) {
                    row.add(result.getString(i));
                }
                rows.add(row);
            }
        }
        return rows;
    }

    private static List<List<String>> rowsOf(Node node, String sql) throws SQLException {
        try (Connection connection = node.connect(); Statement statement = connection.createStatement()) {
            return rowsOf(statement, sql);
        }
    }

    private void loadEventsDirectly() {
        List<String> values = ShopData.eventValues(1, ShopData.EVENTS);
        for (String shard : SHARDS) {
            List<String> own = new ArrayList<>();
            for (int i = 0; i < values.size(); i++) {
                if (shardOf(i + 1).equals(shard)) {
                    own.add(values.get(i));
                }
            }
            primaries.get(shard).execute(multiRowInserts("shop.events", "(id, kind)", own, v -> v, 1000).toArray(String[]::new));
        }
        oracle.execute(multiRowInserts("shop.events", "(id, kind)", values, v -> v, 1000).toArray(String[]::new));
    }

    private Connection shardgate(Client client) throws SQLException {
        return DriverManager.getConnection(client.url("127.0.0.1:" + proxy.port()), ProxyFixture.USER, ProxyFixture.PASSWORD);
    }

    private Connection oracleConnection(Client client) throws SQLException {
        return DriverManager.getConnection(client.url(oracle.address()), topology.accounts().user(), topology.accounts().password());
    }

    /** A MariaDB Connector/J text connection straight to {@code node}, in schema shop. */
    private Connection direct(Node node) throws SQLException {
        return DriverManager.getConnection(Client.MARIADB_TEXT.url(node.address()), topology.accounts().user(),
                topology.accounts().password());
    }

    private static String engineOf(String table) {
        return "SELECT ENGINE FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'shop' AND TABLE_NAME = '" + table + "'";
    }

    private static Map<Long, List<String>> misplaced(Map<Long, List<String>> shardsOfKey) {
        Map<Long, List<String>> wrong = new TreeMap<>();
        shardsOfKey.forEach((key, shards) -> {
            if (!shards.equals(List.of(shardOf(key))) && wrong.size() < 10) {
                wrong.put(key, shards);
            }
        });
        return wrong;
    }

    private static boolean withinFifteenPercent(int a, int b) {
        return Math.min(a, b) >= 0.85 * Math.max(a, b);
    }

    private interface SqlAction {
        void run() throws Exception;
    }

    /** Asserts {@code action} fails with an ERR packet of {@code errno}, {@code sqlState} and a message containing {@code message}. */
    private static SQLException assertError(SqlAction action, int errno, String sqlState, String message) {
        try {
            action.run();
        }
        catch (SQLException e) {
            assertThat(e.getErrorCode()).as("error number of: %s", e.getMessage()).isEqualTo(errno);
            assertThat(e.getSQLState()).as("SQLSTATE of: %s", e.getMessage()).isEqualTo(sqlState);
            assertThat(e.getMessage()).contains(message);
            return e;
        }
        catch (Exception e) {
            throw new AssertionError("expected ERR " + errno + " (" + sqlState + ") but got " + e, e);
        }
        throw new AssertionError("expected ERR " + errno + " (" + sqlState + ") " + message + " but the statement succeeded");
    }

    private static int update(Connection connection, String sql) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            return statement.executeUpdate(sql);
        }
    }

    private static void closeAll(Iterable<Connection> connections) {
        for (Connection connection : connections) {
            try {
                connection.close();
            }
            catch (SQLException e) {
                // Closing after the test; the test's own outcome is what matters.
            }
        }
    }
}
