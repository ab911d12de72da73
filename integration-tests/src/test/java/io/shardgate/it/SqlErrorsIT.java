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

    private static final List<String> ENGINES = List.of("MyISAM", "Aria", "MEMORY");

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

    /**
     * Issue 19, item 9: tables in other engines in a schema that is not sharded are created as the application
     * asks, on the first shard (where that schema lives), while the sharded schema keeps the engine rules.
     */
    @Test
    void otherEnginesInASchemaThatIsNotShardedAreTheApplicationsChoice() throws SQLException {
        try (Connection viaShardgate = proxy.mariadb("shop", ""); Statement statement = viaShardgate.createStatement()) {
            statement.execute("CREATE DATABASE plain");
            statement.execute("USE plain");
            for (String engine : ENGINES) {
                statement.execute("CREATE TABLE t_" + engine + " (id INT PRIMARY KEY, v VARCHAR(16)) ENGINE=" + engine);
                statement.execute("INSERT INTO t_" + engine + " VALUES (1, 'one'), (2, 'two')");
                assertThat(QueryResult.run(viaShardgate, "SELECT v FROM t_" + engine + " ORDER BY id").rows())
                        .isEqualTo(List.of(List.of("one"), List.of("two")));
            }
            statement.execute("USE shop");
            assertThatThrownBy(() -> statement.execute("CREATE TABLE m (id INT PRIMARY KEY) ENGINE=MyISAM"))
                    .as("a sharded schema keeps the engine rules")
                    .isInstanceOfSatisfying(SQLException.class, e -> {
                        assertThat(e.getErrorCode()).isEqualTo(1235);
                        assertThat(e.getMessage()).contains("would put the table in another engine");
                    });
            statement.execute("CREATE TABLE plain.t_qualified (id INT PRIMARY KEY) ENGINE=MEMORY");
        }
        Node s0 = topology.shard("s0").primary();
        for (String engine : ENGINES) {
            assertThat(s0.queryString("SELECT ENGINE FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'plain'"
                    + " AND TABLE_NAME = 't_" + engine + "'")).as("the table on the first shard").isEqualToIgnoringCase(engine);
        }
        assertThat(s0.queryString("SELECT ENGINE FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'plain'"
                + " AND TABLE_NAME = 't_qualified'")).isEqualTo("MEMORY");
        assertThat(topology.shard("s1").primary().queryString("SELECT COUNT(*) FROM information_schema.TABLES"
                + " WHERE TABLE_SCHEMA = 'plain'")).as("the schema's tables live on the first shard only").isEqualTo("0");
    }

    /** A one-shard deployment (no schemas section) on MyRocks: no schema is sharded, and the engine is the application's. */
    @Test
    void aOneShardDeploymentCreatesTablesInTheEngineTheApplicationNames() throws SQLException {
        Topology own = Topology.start(TopologySpec.builder().shard("s0", Engine.ROCKSDB, 0).build());
        ProxyFixture oneShard = null;
        try {
            own.shard("s0").primary().execute("CREATE DATABASE app");
            oneShard = ProxyFixture.start(own, "");
            try (Connection c = oneShard.mariadb("app", ""); Statement statement = c.createStatement()) {
                for (String engine : List.of("MyISAM", "Aria")) {
                    // FULLTEXT: what MyRocks lacks, and these engines have.
                    statement.execute("CREATE TABLE t_" + engine + " (id INT PRIMARY KEY, body TEXT, FULLTEXT (body)) ENGINE=" + engine);
                }
                statement.execute("CREATE TABLE mem (id INT PRIMARY KEY) ENGINE=MEMORY");
                assertThatThrownBy(() -> statement.execute("CREATE TABLE r (id INT PRIMARY KEY, body TEXT, FULLTEXT (body))"))
                        .as("in the shard's own engine MyRocks' rules hold").isInstanceOfSatisfying(SQLException.class,
                                e -> assertThat(e.getErrorCode()).isEqualTo(1214));
            }
            Node s0 = own.shard("s0").primary();
            assertThat(s0.queryString("SELECT ENGINE FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'app' AND TABLE_NAME = 'mem'"))
                    .isEqualTo("MEMORY");
            assertThat(s0.queryString("SELECT ENGINE FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'app'"
                    + " AND TABLE_NAME = 't_Aria'")).isEqualTo("Aria");
        } finally {
            ProxyFixture.stop(oneShard, own);
        }
    }

    /** Issue 19, item 9: a statement that ran on both shards leaves both shards' warnings for SHOW WARNINGS. */
    @Test
    void showWarningsAfterAScatterListsEveryShardsWarnings() throws SQLException {
        String insert = "INSERT INTO customers (id, name) VALUES (5, 'on s0'), (1, 'on s1')";
        String scatter = "SELECT CAST(CONCAT('x', id) AS INT) FROM customers ORDER BY id";
        try (Connection viaShardgate = proxy.mariadb("shop", ""); Statement statement = viaShardgate.createStatement();
             Connection direct = DriverManager.getConnection(Client.MARIADB_TEXT.url(oracle.address()),
                     topology.accounts().user(), topology.accounts().password()); Statement onOracle = direct.createStatement()) {
            statement.execute(insert);
            onOracle.execute(insert);
            assertThat(topology.shard("s0").primary().queryString("SELECT COUNT(*) FROM shop.customers WHERE id IN (1, 5)"))
                    .as("the rows on two shards").isEqualTo("1");
            QueryResult.run(direct, scatter);
            List<List<String>> expected = QueryResult.run(direct, "SHOW WARNINGS").rows();
            QueryResult.run(viaShardgate, scatter);
            List<List<String>> shown = QueryResult.run(viaShardgate, "SHOW WARNINGS").rows();
            assertThat(expected).hasSize(2);
            assertThat(shown).as("each shard's warning, its message prefixed with the shard")
                    .containsExactlyInAnyOrder(List.of("Warning", "1292", "shard s0: " + expected.get(1).get(2)),
                            List.of("Warning", "1292", "shard s1: " + expected.get(0).get(2)));
            assertThat(QueryResult.run(viaShardgate, "SHOW COUNT(*) WARNINGS").rows()).containsExactly(List.of("2"));
            assertThat(QueryResult.run(viaShardgate, "SELECT @@warning_count").rows()).containsExactly(List.of("2"));
            assertThat(QueryResult.run(viaShardgate, "SHOW WARNINGS LIMIT 1").rows()).hasSize(1);
            assertThat(QueryResult.run(viaShardgate, "SHOW ERRORS").rows()).isEmpty();
            statement.execute("SET SESSION max_error_count = 1");
            QueryResult.run(viaShardgate, scatter);
            assertThat(QueryResult.run(viaShardgate, "SHOW WARNINGS").rows()).as("max_error_count rows").hasSize(1);
            assertThat(QueryResult.run(viaShardgate, "SELECT @@warning_count").rows()).as("every warning counted")
                    .containsExactly(List.of("2"));
            QueryResult.run(viaShardgate, "SELECT COUNT(*) FROM customers");
            assertThat(QueryResult.run(viaShardgate, "SHOW WARNINGS").rows()).as("the next statement has none").isEmpty();

            // A statement on one shard, relayed as it runs: its warning is read before its connection goes back.
            statement.execute("SET SESSION max_error_count = 64");
            String onOne = "SELECT CAST(CONCAT('x', id) AS INT) FROM customers WHERE id = 5";
            QueryResult.run(direct, onOne);
            List<List<String>> one = QueryResult.run(direct, "SHOW WARNINGS").rows();
            QueryResult.run(viaShardgate, onOne);
            assertThat(one).hasSize(1);
            assertThat(QueryResult.run(viaShardgate, "SHOW WARNINGS").rows()).as("a single-shard statement's warning")
                    .containsExactly(List.of("Warning", "1292", "shard s0: " + one.get(0).get(2)));
            statement.execute("SET SESSION max_error_count = 1");
            QueryResult.run(viaShardgate, "SELECT CAST(CONCAT('x', id) AS INT), CAST(CONCAT('y', id) AS INT) FROM customers WHERE id = 5");
            assertThat(QueryResult.run(viaShardgate, "SHOW WARNINGS").rows()).as("max_error_count rows of a single-shard statement")
                    .hasSize(1);
            assertThat(QueryResult.run(viaShardgate, "SELECT @@warning_count").rows()).containsExactly(List.of("2"));
        }
    }

    /** Issue 19, item 6: SHOW SHARDGATE statements through one grammar, with HELP; an unknown one is a syntax error. */
    @Test
    void showShardgateHelpListsTheStatementsAndAnUnknownOneIsASyntaxError() throws SQLException {
        try (Connection c = proxy.mariadb("shop", "")) {
            QueryResult help = QueryResult.run(c, "SHOW SHARDGATE HELP");
            assertThat(help.columns()).extracting(QueryResult.Column::label).containsExactly("statement", "description");
            assertThat(help.rows()).extracting(row -> row.get(0)).contains("SHOW SHARDGATE BACKENDS", "SHOW SHARDGATE QUERIES",
                    "SHOW SHARDGATE HELP", "EXPLAIN SHARDGATE <statement>");
            assertThat(help.rows()).allSatisfy(row -> assertThat(row.get(1)).isNotBlank().doesNotContain("TODO"));
            assertThat(error(c, "SHOW SHARDGATE NOTHING", false)).startsWith("ERROR 1064 (42000): You have an error in your SQL syntax"
                    + " near 'NOTHING': Shardgate's own statements are SHOW SHARDGATE BACKENDS, ");
            assertThat(QueryResult.run(c, "EXPLAIN SHARDGATE SELECT * FROM customers WHERE id = 5").rows()).isNotEmpty();
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
