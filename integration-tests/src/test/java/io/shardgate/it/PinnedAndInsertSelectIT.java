package io.shardgate.it;

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

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Issue 19's two examples on the demo's shop schema (customers by id, orders by customer_id with ids from a
 * global sequence; s0 InnoDB {@code -80}, s1 MyRocks {@code 80-}), through the packaged proxy: a statement
 * pinned to one shard runs there whole, INSERT ... SELECT lands every row on its key's shard, and an operator
 * that must hold more rows than {@code limits.max_buffered_rows} (here 50) answers ERR 1038 and writes nothing,
 * while COUNT(DISTINCT) over more rows than that streams.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class PinnedAndInsertSelectIT {
    private static final String CONFIG = """
            schemas:
              - name: shop
                tables:
                  customers:   { shard_key: id, vindex: hash }
                  orders:      { shard_key: customer_id, vindex: hash }
                  order_items: { shard_key: customer_id, vindex: hash }
                sequences:
                  orders.id: { shard: s0 }
            transactions: { cross_shard: xa }
            limits: { max_buffered_rows: 50 }
            """;
    private static final String[] DDL = {
        "CREATE DATABASE shop",
        "CREATE TABLE shop.customers (id BIGINT PRIMARY KEY, name VARCHAR(64) NOT NULL)",
        "CREATE TABLE shop.orders (id BIGINT PRIMARY KEY, customer_id BIGINT NOT NULL, amount DECIMAL(10,2) NOT NULL, KEY (customer_id))",
        "CREATE TABLE shop.order_items (id BIGINT AUTO_INCREMENT PRIMARY KEY, customer_id BIGINT NOT NULL, qty INT)",
    };
    private static final int CUSTOMERS = 100;

    private Topology topology;
    private ProxyFixture proxy;
    private Connection connection;

    @BeforeAll
    void start() throws SQLException {
        topology = Topology.start(TopologySpec.builder().shard("s0", Engine.INNODB, 0).shard("s1", Engine.ROCKSDB, 0).build());
        for (String shard : new String[] {"s0", "s1"}) {
            topology.shard(shard).primary().execute(DDL);
        }
        proxy = ProxyFixture.start(topology, ProxyFixture.HALVES, CONFIG);
        connection = proxy.mariadb("shop", "useServerPrepStmts=false");
        StringBuilder customers = new StringBuilder("INSERT INTO customers (id, name) VALUES ");
        for (int id = 1; id <= CUSTOMERS; id++) {
            customers.append(id == 1 ? "" : ", ").append('(').append(id).append(", 'name ").append(id % 30).append("')");
        }
        try (Statement statement = connection.createStatement()) {
            statement.execute(customers.toString());
            statement.execute("INSERT INTO orders (customer_id, amount) VALUES (7, 10.50), (7, 3.25), (4, 1.00)");
        }
    }

    @AfterAll
    void stop() throws SQLException {
        if (connection != null) {
            connection.close();
        }
        if (proxy != null) {
            assertThat(proxy.output()).as("the proxy's log names no internal error").doesNotContain("Internal error");
        }
        ProxyFixture.stop(proxy, topology);
    }

    private long count(String shard, String sql) {
        return Long.parseLong(topology.shard(shard).primary().queryString(sql));
    }

    @Test
    @Order(1)
    void aDerivedTableOverOneShardRunsThereWhole() throws SQLException {
        try (Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT c.name, q.m FROM customers c, (SELECT customer_id, MAX(id) m FROM orders"
                     + " WHERE customer_id = 7 GROUP BY customer_id) q WHERE c.id = 7 AND q.customer_id = c.id")) {
            assertThat(rows.next()).isTrue();
            assertThat(rows.getString(1)).isEqualTo("name 7");
            long max = rows.getLong(2);
            assertThat(rows.next()).isFalse();
            assertThat(max).isEqualTo(count("s0", "SELECT MAX(id) FROM shop.orders WHERE customer_id = 7"));
        }
    }

    @Test
    @Order(2)
    void insertSelectPinnedToOneShardDrawsIdsAndLandsThere() throws SQLException {
        long before = count("s0", "SELECT COUNT(*) FROM shop.orders WHERE customer_id = 7");
        try (Statement statement = connection.createStatement()) {
            int inserted = statement.executeUpdate("INSERT INTO orders (customer_id, amount) SELECT id, 9.99 FROM customers WHERE id = 7",
                    Statement.RETURN_GENERATED_KEYS);
            assertThat(inserted).isEqualTo(1);
        }
        assertThat(count("s0", "SELECT COUNT(*) FROM shop.orders WHERE customer_id = 7")).isEqualTo(before + 1);
        assertThat(count("s0", "SELECT COUNT(*) FROM shop.orders WHERE customer_id = 7 AND amount = 9.99")).isEqualTo(1);
        assertThat(count("s1", "SELECT COUNT(*) FROM shop.orders WHERE customer_id = 7")).isZero();
        assertThat(count("s0", "SELECT COUNT(DISTINCT id) FROM shop.orders")).isEqualTo(count("s0", "SELECT COUNT(*) FROM shop.orders"));
    }

    @Test
    @Order(3)
    void insertSelectBetweenCoLocatedTablesKeepsEveryRowOnItsShard() throws SQLException {
        try (Statement statement = connection.createStatement()) {
            assertThat(statement.executeUpdate("INSERT INTO order_items (customer_id, qty) SELECT id, 1 FROM customers")).isEqualTo(CUSTOMERS);
        }
        long total = 0;
        for (String shard : new String[] {"s0", "s1"}) {
            total += count(shard, "SELECT COUNT(*) FROM shop.order_items");
            assertThat(count(shard, "SELECT COUNT(*) FROM shop.order_items i LEFT JOIN shop.customers c ON c.id = i.customer_id"
                    + " WHERE c.id IS NULL")).as("rows on %s whose customer lives elsewhere", shard).isZero();
        }
        assertThat(total).isEqualTo(CUSTOMERS);
    }

    @Test
    @Order(4)
    void insertSelectHoldingMoreRowsThanTheLimitIsRefusedAndWritesNothing() throws SQLException {
        long before = count("s0", "SELECT COUNT(*) FROM shop.orders") + count("s1", "SELECT COUNT(*) FROM shop.orders");
        try (Statement statement = connection.createStatement()) {
            assertThatThrownBy(() -> statement.executeUpdate("INSERT INTO orders (customer_id, amount) SELECT id, 1 FROM customers"))
                    .isInstanceOfSatisfying(SQLException.class, e -> {
                        assertThat(e.getErrorCode()).isEqualTo(1038);
                        assertThat(e.getSQLState()).isEqualTo("HY001");
                        assertThat(e.getMessage()).endsWith("Shardgate buffered more than 50 rows for INSERT ... SELECT into shop.orders;"
                                + " narrow the query or raise the row limit");
                    });
        }
        assertThat(count("s0", "SELECT COUNT(*) FROM shop.orders") + count("s1", "SELECT COUNT(*) FROM shop.orders")).isEqualTo(before);
    }

    @Test
    @Order(5)
    void countDistinctOverMoreRowsThanTheLimitStreams() throws SQLException {
        try (Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT COUNT(DISTINCT name), COUNT(*) FROM customers")) {
            assertThat(rows.next()).isTrue();
            assertThat(rows.getLong(1)).isEqualTo(30);
            assertThat(rows.getLong(2)).isEqualTo(CUSTOMERS);
        }
        try (Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT COUNT(DISTINCT id) FROM customers")) {
            assertThat(rows.next()).isTrue();
            assertThat(rows.getLong(1)).isEqualTo(CUSTOMERS);
        }
    }
}
