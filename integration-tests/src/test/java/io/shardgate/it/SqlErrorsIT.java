package io.shardgate.it;

import io.shardgate.it.ShopQueries.Client;
import io.shardgate.replication.topology.Node;
import io.shardgate.replication.topology.Topology;
import io.shardgate.replication.topology.TopologySpec;
import io.shardgate.storage.Engine;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Errors as MariaDB gives them (issue 19, item 6): statements with syntax errors, sent through Shardgate
 * in front of a sharded {@code shop} (s0 on InnoDB, s1 on MyRocks), get the same error number, SQLSTATE and
 * message as from one unsharded MariaDB (the oracle, {@code ref}, not in the proxy's config) with the same
 * tables, through MariaDB Connector/J and MySQL Connector/J, as text and as server-side prepared statements.
 * Valid SQL Shardgate cannot plan gets its 1235 in words, never its parser's internal text.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SqlErrorsIT {
    /** MariaDB Connector/J prefixes each server message with the connection id. */
    private static final Pattern CONNECTION_PREFIX = Pattern.compile("^\\(conn=\\d+\\) ");
    private static final String CONFIG = """
            schemas:
              - name: shop
                tables:
                  customers: { shard_key: id, vindex: hash }
                  orders:    { shard_key: customer_id, vindex: hash }
                  events:    { shard_key: id, vindex: hash }
                  countries: { type: reference }
                  settings:  { type: unsharded, shard: s0 }
            """;
    /** Statements MariaDB refuses as syntax errors, each as a client may well send it. */
    static final List<String> BAD = List.of(
            "SELEC 1",
            "SELECT * FORM customers",
            "SELECT (",
            "SELECT 'unterminated",
            "SELECT * FROM customers WHERE",
            "SELECT * FROM customers WHERE id = 1 ROWS EXAMINED 10",
            "SELECT name FROM customers ORDER BY",
            "SELECT * FROM customers LIMIT",
            "INSERT INTO customers (id, name) VALUES (1,",
            "INSERT customers SET",
            "UPDATE customers SET WHERE id = 1",
            "DELETE customers WHERE id = 1",
            "SELECT * FROM orders o JOIN customers c ON",
            "select `unterminated from customers",
            "SELECT 1 +",
            "/* a comment */ SELEC 1");

    private Topology topology;
    private Node oracle;
    private ProxyFixture proxy;

    @BeforeAll
    void start() {
        topology = Topology.start(TopologySpec.builder()
                .shard("s0", Engine.INNODB, 0)
                .shard("s1", Engine.ROCKSDB, 0)
                .shard("ref", Engine.INNODB, 0)
                .build());
        oracle = topology.shard("ref").primary();
        for (String shard : List.of("s0", "s1", "ref")) {
            topology.shard(shard).primary().execute(ShopData.DDL);
        }
        proxy = ProxyFixture.start(topology, ProxyFixture.HALVES, CONFIG);
    }

    @AfterAll
    void stop() {
        ProxyFixture.stop(proxy, topology);
    }

    @Test
    void syntaxErrorsGetTheServersOwnErrorThroughEveryClient() throws SQLException {
        List<String> failures = new ArrayList<>();
        int compared = 0;
        for (Client client : Client.values()) {
            try (Connection viaShardgate = DriverManager.getConnection(client.url("127.0.0.1:" + proxy.port()),
                    ProxyFixture.USER, ProxyFixture.PASSWORD);
                 Connection direct = DriverManager.getConnection(client.url(oracle.address()),
                         topology.accounts().user(), topology.accounts().password())) {
                for (String sql : BAD) {
                    String expected = error(direct, sql, client.prepared());
                    String actual = error(viaShardgate, sql, client.prepared());
                    compared++;
                    if (!expected.startsWith("ERROR 1064 ")) {
                        failures.add(client + " " + sql + ": the oracle answered " + expected + " (not a syntax error: fix the list)");
                    } else if (!expected.equals(actual)) {
                        failures.add(client + " " + sql + "\n    oracle:    " + expected + "\n    Shardgate: " + actual);
                    }
                }
                // The session is still usable after all of them.
                try (Statement statement = viaShardgate.createStatement()) {
                    statement.execute("SELECT COUNT(*) FROM customers");
                }
            }
        }
        System.out.printf("[sql-errors-it] %d bad statements x %d clients compared with one unsharded MariaDB; %d differ%n",
                BAD.size(), Client.values().length, failures.size());
        assertThat(compared).isEqualTo(BAD.size() * Client.values().length);
        assertThat(failures).as("syntax errors answered differently through Shardgate").isEmpty();
    }

    @Test
    void validSqlShardgateCannotPlanIsRefusedInWords() throws SQLException {
        String returning = "INSERT INTO orders (id, customer_id) VALUES (7, 7) RETURNING id";
        for (Client client : List.of(Client.MARIADB_TEXT, Client.MARIADB_PREPARED)) {
            try (Connection viaShardgate = DriverManager.getConnection(client.url("127.0.0.1:" + proxy.port()),
                    ProxyFixture.USER, ProxyFixture.PASSWORD)) {
                assertThat(error(viaShardgate, returning, client.prepared())).as(client.toString())
                        .isEqualTo("ERROR 1235 (42000): Shardgate cannot plan this statement over sharded tables: its SQL parser"
                                + " does not read this form of INSERT: '" + returning + "'");
            }
        }
        assertThat(topology.shard("s0").primary().queryString("SELECT COUNT(*) FROM shop.orders"))
                .as("checking the statement on a shard prepared it, never ran it").isEqualTo("0");
        assertThat(topology.shard("s1").primary().queryString("SELECT COUNT(*) FROM shop.orders")).isEqualTo("0");
    }

    @Test
    void aStatementWithASyntaxErrorRunsNowhere() throws SQLException {
        try (Connection viaShardgate = proxy.mariadb("shop", "")) {
            assertThatThrownBy(() -> viaShardgate.createStatement().execute("INSERT INTO countries (code, name) VALUES ('XX', 'x') ,"))
                    .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getErrorCode()).isEqualTo(1064));
        }
        for (String shard : List.of("s0", "s1")) {
            assertThat(topology.shard(shard).primary().queryString("SELECT COUNT(*) FROM shop.countries")).as(shard).isEqualTo("0");
        }
    }

    /** The statement's error as {@code ERROR errno (SQLSTATE): message}, or "no error". */
    static String error(Connection connection, String sql, boolean prepared) {
        try {
            if (prepared) {
                try (PreparedStatement statement = connection.prepareStatement(sql)) {
                    statement.execute();
                }
            } else {
                try (Statement statement = connection.createStatement()) {
                    statement.execute(sql);
                }
            }
            return "no error";
        } catch (SQLException e) {
            return "ERROR " + e.getErrorCode() + " (" + e.getSQLState() + "): " + CONNECTION_PREFIX.matcher(e.getMessage()).replaceFirst("");
        }
    }
}
