package io.shardgate.it;

import io.shardgate.replication.topology.Topology;
import io.shardgate.replication.topology.TopologySpec;
import io.shardgate.storage.Engine;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Joins across shards through the packaged proxy with copies (docs/sharding.md, Copies), on an InnoDB
 * and a MyRocks shard with {@code limits.max_buffered_rows} 1000: a plain join whose copied table holds
 * 2,500 rows streams it in batches and finds every pair; a join that must merge (ORDER BY) over the limit
 * gets ERR 1038 naming the table; a transaction's join sees its own writes; copies never outlive their
 * statement (every pooled connection reads the real tables afterwards, and none stays in use), also with
 * many clients at once.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CopyJoinIT {
    private static final String CONFIG = """
            schemas:
              - name: shop
                tables:
                  customers: { shard_key: id, vindex: hash }
                  orders:    { shard_key: customer_id, vindex: hash }
            transactions: { cross_shard: xa }
            limits: { max_buffered_rows: 1000 }
            """;
    private static final String[] DDL = {
        "CREATE DATABASE shop",
        "CREATE TABLE shop.customers (id BIGINT PRIMARY KEY, name VARCHAR(64) NOT NULL, tier INT NOT NULL)",
        "CREATE TABLE shop.orders (id BIGINT PRIMARY KEY, customer_id BIGINT NOT NULL, tier INT NOT NULL, KEY (customer_id))",
    };
    private static final int CUSTOMERS = 2_500;
    private static final int ORDERS = 400;
    private static final Pattern IN_USE = Pattern.compile("(?m)^shardgate_backend_connections\\{[^}]*state=\"in_use\"[^}]*} (\\S+)");

    private Topology topology;
    private ProxyFixture proxy;

    @BeforeAll
    void start() throws SQLException {
        topology = Topology.start(TopologySpec.builder().shard("s0", Engine.INNODB, 0).shard("s1", Engine.ROCKSDB, 0).build());
        for (String shard : new String[] {"s0", "s1"}) {
            topology.shard(shard).primary().execute(DDL);
        }
        proxy = ProxyFixture.start(topology, ProxyFixture.HALVES, CONFIG);
        try (Connection c = proxy.mariadb("shop", ""); Statement statement = c.createStatement()) {
            StringBuilder customers = new StringBuilder("INSERT INTO customers (id, name, tier) VALUES ");
            for (int id = 1; id <= CUSTOMERS; id++) {
                customers.append(id == 1 ? "" : ", ").append('(').append(id).append(", 'c").append(id).append("', ").append(id % 7).append(')');
            }
            statement.execute(customers.toString());
            StringBuilder orders = new StringBuilder("INSERT INTO orders (id, customer_id, tier) VALUES ");
            for (int id = 1; id <= ORDERS; id++) {
                orders.append(id == 1 ? "" : ", ").append('(').append(id).append(", ").append(id * 5).append(", ").append(id % 7).append(')');
            }
            statement.execute(orders.toString());
        }
    }

    @AfterAll
    void stop() {
        if (proxy != null) {
            assertThat(proxy.output()).as("the proxy's log names no internal error").doesNotContain("Internal error");
        }
        ProxyFixture.stop(proxy, topology);
    }

    /** The join's pairs counted by the test itself: order o (customer o*5, tier o%7) with every customer of the same tier. */
    private static long expectedPairs() {
        long pairs = 0;
        for (int order = 1; order <= ORDERS; order++) {
            pairs += tierSize(order % 7);
        }
        return pairs;
    }

    private static long tierSize(int tier) {
        long n = 0;
        for (int id = 1; id <= CUSTOMERS; id++) {
            n += id % 7 == tier ? 1 : 0;
        }
        return n;
    }

    @Test
    void aPlainJoinOverMoreRowsThanTheLimitStreamsItsCopyInBatches() throws Exception {
        String join = "SELECT o.id, c.id, c.name FROM orders o JOIN customers c ON c.tier = o.tier";
        try (Connection c = proxy.mariadb("shop", ""); Statement statement = c.createStatement()) {
            try (ResultSet plan = statement.executeQuery("EXPLAIN SHARDGATE " + join)) {
                assertThat(plan.next()).isTrue();
                assertThat(plan.getString(1)).as("a batched copy").startsWith("CopyJoin (the copied table's rows in batches");
            }
            long pairs = 0;
            long checksum = 0;
            try (ResultSet rows = statement.executeQuery(join)) {
                assertThat(rows.getMetaData().getColumnTypeName(3)).isEqualTo("VARCHAR");
                while (rows.next()) {
                    pairs++;
                    assertThat(rows.getString(3)).isEqualTo("c" + rows.getLong(2));
                    checksum += rows.getLong(1) * 31 + rows.getLong(2);
                }
            }
            assertThat(pairs).as("every pair, once").isEqualTo(expectedPairs());
            long expectedChecksum = 0;
            for (int order = 1; order <= ORDERS; order++) {
                for (int id = 1; id <= CUSTOMERS; id++) {
                    expectedChecksum += id % 7 == order % 7 ? order * 31L + id : 0;
                }
            }
            assertThat(checksum).isEqualTo(expectedChecksum);
        }
        assertCopiesGone();
    }

    @Test
    void aJoinThatMustMergeOverTheLimitGetsTheDocumentedError() throws Exception {
        try (Connection c = proxy.mariadb("shop", ""); Statement statement = c.createStatement()) {
            assertThatThrownBy(() -> statement.executeQuery("SELECT o.id, c.id FROM orders o JOIN customers c ON c.tier = o.tier"
                    + " ORDER BY c.name LIMIT 5"))
                    .isInstanceOfSatisfying(SQLException.class, e -> {
                        assertThat(e.getErrorCode()).isEqualTo(1038);
                        assertThat(e.getSQLState()).isEqualTo("HY001");
                        assertThat(e.getMessage()).contains("more than 1000 rows").contains("shop.customers");
                    });
            // Under the limit, the same shape answers: the copied side narrowed by its own condition.
            try (ResultSet rows = statement.executeQuery("SELECT o.id, c.id FROM orders o JOIN customers c ON c.tier = o.tier"
                    + " WHERE c.id <= 700 ORDER BY c.id DESC, o.id LIMIT 3")) {
                List<String> got = new ArrayList<>();
                while (rows.next()) {
                    got.add(rows.getLong(1) + "/" + rows.getLong(2));
                }
                // Customer 700 has tier 0: the orders of tier 0 are 7, 14, 21, ...
                assertThat(got).containsExactly("7/700", "14/700", "21/700");
            }
        }
        assertCopiesGone();
    }

    @Test
    void aTransactionsJoinSeesItsOwnWritesAndPreparedStatementsBindTheirValues() throws Exception {
        try (Connection c = proxy.mariadb("shop", "useServerPrepStmts=true")) {
            c.setAutoCommit(false);
            try (Statement statement = c.createStatement()) {
                statement.executeUpdate("INSERT INTO customers (id, name, tier) VALUES (90001, 'new', 99)");
                statement.executeUpdate("INSERT INTO orders (id, customer_id, tier) VALUES (90001, 4, 99)");
            }
            try (PreparedStatement join = c.prepareStatement("SELECT c.name FROM orders o JOIN customers c ON c.tier = o.tier"
                    + " WHERE o.tier = ? AND c.id > ?")) {
                join.setInt(1, 99);
                join.setLong(2, 90000);
                try (ResultSet rows = join.executeQuery()) {
                    assertThat(rows.next()).as("the uncommitted pair").isTrue();
                    assertThat(rows.getString(1)).isEqualTo("new");
                    assertThat(rows.next()).isFalse();
                }
            }
            c.rollback();
        }
        assertCopiesGone();
    }

    @Test
    void writesWithSubqueriesOverOtherShardsChangeTheRightRows() throws Exception {
        try (Connection c = proxy.mariadb("shop", "")) {
            c.setAutoCommit(false);
            try (Statement statement = c.createStatement()) {
                // Correlated: orders (400 rows) is copied to the shards of customers; customer c's tier becomes order c's + 10.
                assertThat(statement.executeUpdate("UPDATE customers c SET c.tier = (SELECT MAX(o.tier) FROM orders o"
                        + " WHERE o.id = c.id) + 10 WHERE c.id <= 10")).isEqualTo(10);
                try (ResultSet rows = statement.executeQuery("SELECT id, tier FROM customers WHERE id <= 10 ORDER BY id")) {
                    for (int id = 1; id <= 10; id++) {
                        assertThat(rows.next()).isTrue();
                        assertThat(rows.getInt(2)).as("customer %d", id).isEqualTo(id % 7 + 10);
                    }
                }
                // Uncorrelated: the subquery runs first.
                assertThat(statement.executeUpdate("UPDATE orders SET tier = 50 WHERE customer_id IN"
                        + " (SELECT id FROM customers WHERE name IN ('c5', 'c10'))")).isEqualTo(2);
                assertThat(statement.executeUpdate("DELETE FROM customers WHERE id <= 20 AND NOT EXISTS"
                        + " (SELECT 1 FROM orders o WHERE o.customer_id = customers.id)")).as("all but customers 5, 10, 15, 20")
                        .isEqualTo(16);
                // The write's own table is never a copy: refused, not written into a copy.
                assertThatThrownBy(() -> statement.executeUpdate("UPDATE customers SET tier = (SELECT COUNT(*) FROM customers c2"
                        + " WHERE c2.name = customers.name)")).isInstanceOfSatisfying(SQLException.class,
                        e -> assertThat(e.getErrorCode()).isEqualTo(1235));
            }
            c.rollback();
        }
        try (Connection c = proxy.mariadb("shop", ""); Statement statement = c.createStatement();
             ResultSet rows = statement.executeQuery("SELECT COUNT(*), SUM(tier) FROM customers")) {
            rows.next();
            assertThat(rows.getLong(1)).as("rolled back").isEqualTo(CUSTOMERS);
            long tiers = 0;
            for (int id = 1; id <= CUSTOMERS; id++) {
                tiers += id % 7;
            }
            assertThat(rows.getLong(2)).isEqualTo(tiers);
        }
        assertCopiesGone();
    }

    @Test
    void manyClientsAtOnceGetTheirOwnAnswersAndTheRealTablesAfterwards() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(6);
        List<Future<?>> clients = new ArrayList<>();
        for (int k = 0; k < 6; k++) {
            int client = k;
            clients.add(pool.submit(() -> {
                try (Connection c = proxy.mariadb("shop", ""); Statement statement = c.createStatement()) {
                    for (int i = 0; i < 15; i++) {
                        int tier = (client + i) % 7;
                        try (ResultSet rows = statement.executeQuery("SELECT COUNT(*) FROM orders o JOIN customers c ON c.tier = o.tier"
                                + " WHERE o.tier = " + tier + " AND c.id <= 900")) {
                            rows.next();
                            long orders = 0;
                            for (int id = 1; id <= ORDERS; id++) {
                                orders += id % 7 == tier ? 1 : 0;
                            }
                            long customers = 0;
                            for (int id = 1; id <= 900; id++) {
                                customers += id % 7 == tier ? 1 : 0;
                            }
                            assertThat(rows.getLong(1)).as("tier %d", tier).isEqualTo(orders * customers);
                        }
                        try (ResultSet rows = statement.executeQuery("SELECT COUNT(*) FROM customers")) {
                            rows.next();
                            assertThat(rows.getLong(1)).as("the real table, not a copy").isEqualTo(CUSTOMERS);
                        }
                    }
                }
                return null;
            }));
        }
        pool.shutdown();
        for (Future<?> client : clients) {
            client.get(3, TimeUnit.MINUTES);
        }
        assertCopiesGone();
    }

    /** No backend connection stays in use, and every pooled connection of each shard reads the real tables. */
    private void assertCopiesGone() throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        double inUse = -1;
        while (System.nanoTime() < deadline) {
            inUse = inUse();
            if (inUse == 0) {
                break;
            }
            Thread.sleep(50);
        }
        assertThat(inUse).as("backend connections in use after the joins").isZero();
        List<Connection> open = new ArrayList<>();
        try {
            // As many sessions as the pools hold, each in a transaction: they take every pooled connection in turn.
            for (int i = 0; i < 8; i++) {
                Connection c = proxy.mariadb("shop", "");
                open.add(c);
                try (Statement statement = c.createStatement()) {
                    statement.execute("BEGIN");
                    try (ResultSet rows = statement.executeQuery("SELECT COUNT(*) FROM customers")) {
                        rows.next();
                        assertThat(rows.getLong(1)).isEqualTo(CUSTOMERS);
                    }
                    try (ResultSet rows = statement.executeQuery("SELECT COUNT(*) FROM orders WHERE id <= " + ORDERS)) {
                        rows.next();
                        assertThat(rows.getLong(1)).isEqualTo(ORDERS);
                    }
                }
            }
        } finally {
            for (Connection c : open) {
                c.close();
            }
        }
        for (String shard : new String[] {"s0", "s1"}) {
            assertThat(topology.shard(shard).primary().queryString("SELECT COUNT(*) FROM information_schema.PROCESSLIST"
                    + " WHERE INFO LIKE 'CREATE TEMPORARY TABLE%'")).isEqualTo("0");
        }
    }

    private double inUse() throws Exception {
        String metrics = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + proxy.adminPort()
                + "/metrics")).header("Authorization", "Bearer " + ProxyFixture.ADMIN_TOKEN).build(), HttpResponse.BodyHandlers.ofString()).body();
        Matcher matcher = IN_USE.matcher(metrics);
        double sum = 0;
        while (matcher.find()) {
            sum += Double.parseDouble(matcher.group(1));
        }
        return sum;
    }
}
