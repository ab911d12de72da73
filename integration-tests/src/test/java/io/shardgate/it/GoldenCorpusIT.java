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

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
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
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The golden planner corpus ({@code router/src/test/resources/planner/*.txt}, planned in memory by
 * {@code PlannerGoldenTest} against {@code ShopSchema}) sent, statement by statement, through the
 * packaged proxy in front of real shards: s0 on InnoDB ({@code -80}) and s1 on MyRocks ({@code 80-}),
 * configured as {@code ShopSchema} is (see {@link #CONFIG}), with the tables the statements use.
 *
 * <p>For each case:
 * <ul>
 * <li>an expected {@code ERROR errno (SQLSTATE): message} must come back exactly so;
 * <li>an expected plan must be what {@code EXPLAIN SHARDGATE <statement>} answers through the proxy
 * (line for line), and the statement itself must not get an error Shardgate generated (ERR 1105
 * above all, or any refusal of its own); a backend error is accepted only for a write or DDL and
 * only with one of {@link #BACKEND_WRITE_ERRORS}, which the corpus causes by design (it inserts fixed
 * keys more than once and creates tables that exist);
 * <li>statements with {@code ?} are sent as server-side prepared statements
 * ({@code useServerPrepStmts}: COM_STMT_PREPARE, then COM_STMT_EXECUTE) with plausible integers bound,
 * {@link #PARAMETERS} naming the exceptions.
 * </ul>
 * The planner refuses to plan session and transaction statements ({@code SET NAMES}, {@code BEGIN}),
 * which the proxy's session applies before planning: for those the proxy's answer is OK, not the
 * planner's refusal ({@link #SESSION_APPLIES}).
 *
 * <p>The file format is {@code PlannerGoldenTest}'s; only its trivial line splitting is repeated
 * here ({@link #cases()}).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class GoldenCorpusIT {
    private static final Path CORPUS = JarProxy.HOME.resolve("router/src/test/resources/planner");
    /** PlannerGoldenTest.FILES, in its order (the write cases change tables the later ones read). */
    private static final List<String> FILES = List.of("select.txt", "aggregate.txt", "write.txt", "partition.txt",
            "catalog.txt", "unsupported.txt");
    private static final Pattern ERROR = Pattern.compile("ERROR (\\d+) \\(([0-9A-Z]{5})\\): (.*)");
    /** MariaDB Connector/J prefixes each server message with the connection id. */
    private static final Pattern CONNECTION_PREFIX = Pattern.compile("^\\(conn=\\d+\\) ");
    private static final String SESSION_APPLIES = "Shardgate does not support planning ";
    private static final Pattern LEADING_COMMENT = Pattern.compile("/\\*[^!+].*?\\*/\\s*");
    /**
     * Backend errors a corpus write or DDL may get, because the corpus is a list of independent cases
     * sent one after another to one database: 1062 duplicate key (fixed keys such as customers.id 4
     * are inserted by several cases), 1050 table exists (it creates orders, sbtest1 and other.things,
     * which the cases before it read), 1061 duplicate index name.
     */
    private static final Set<Integer> BACKEND_WRITE_ERRORS = Set.of(1062, 1050, 1061);
    /**
     * Parameters other than 1001, 1002, ...: a key the statement's PARTITION clause allows (customers.id 1
     * is on s1, as the golden plans show).
     */
    private static final Map<String, List<Object>> PARAMETERS = Map.of(
            "INSERT INTO customers PARTITION (s1) (id, name) VALUES (?, ?)", List.of(1, "partition s1"));
    /**
     * Cases that do not get their expected answer yet, each with the error they get and why; the test fails
     * when one of them gets another answer (fixed: remove it here). Found by this test (issue 16).
     */
    private static final Map<String, String> KNOWN = Map.of();
    /** Statements after which the next cases need the schema back as it was. */
    private static final Map<String, String> UNDO = Map.of(
            "RENAME TABLE orders TO orders_old", "RENAME TABLE orders_old TO orders");

    /** ShopSchema as YAML (with the fixture's client user: a table named users hides it from ProxyFixture.config). */
    private static final String CONFIG = """
            users: [ { name: app, password: app } ]
            schemas:
              - name: shop
                tables:
                  customers:   { shard_key: id, vindex: hash }
                  orders:      { shard_key: customer_id, vindex: hash }
                  order_items: { shard_key: customer_id, vindex: hash }
                  users:       { shard_key: email, vindex: hash, key_type: string, collation: utf8mb4_general_ci }
                  tickets:     { shard_key: customer_id, vindex: hash, key_type: string, collation: utf8mb4_bin }
                  events:      { shard_key: region, vindex: list, key_type: string, lists: { s0: [eu, uk], s1: [us, ca] } }
                  ledger:      { shard_key: account_id, vindex: range, ranges: [ { less_than: 1000, shard: s0 }, { shard: s1 } ] }
                  sbtest1:     { shard_key: id, vindex: hash }
                  countries:   { type: reference }
                  currencies:  { type: reference }
                  settings:    { type: unsharded, shard: s0 }
                  audit_log:   { type: unsharded, shard: s1 }
                sequences:
                  customers.id: { shard: s0 }
                  orders.id:    { shard: s0 }
            transactions: { cross_shard: xa }
            """;

    /**
     * The tables with every column the corpus names, on both shards (no ENGINE clause: InnoDB on s0,
     * MyRocks on s1). orders and customers are natively partitioned too, since the corpus passes
     * partition names (p2024, p0) through to the shards.
     */
    private static final String[] DDL = {
        "CREATE DATABASE shop",
        "CREATE TABLE shop.customers (id BIGINT PRIMARY KEY, name VARCHAR(64), city VARCHAR(64), country CHAR(2),"
                + " status VARCHAR(16), visits INT NOT NULL DEFAULT 0, created_at DATETIME) PARTITION BY HASH (id) PARTITIONS 2",
        "CREATE TABLE shop.orders (id BIGINT PRIMARY KEY, customer_id BIGINT NOT NULL, total DECIMAL(10,2), status VARCHAR(16),"
                + " country CHAR(2), c VARCHAR(64), vat DECIMAL(5,2), created_at DATETIME, KEY (customer_id))"
                + " PARTITION BY RANGE (id) (PARTITION p2024 VALUES LESS THAN (1000000), PARTITION p2025 VALUES LESS THAN MAXVALUE)",
        "CREATE TABLE shop.order_items (id BIGINT AUTO_INCREMENT PRIMARY KEY, customer_id BIGINT NOT NULL, order_id BIGINT,"
                + " qty INT)",
        "CREATE TABLE shop.users (id BIGINT AUTO_INCREMENT PRIMARY KEY, email VARCHAR(128) COLLATE utf8mb4_general_ci,"
                + " name VARCHAR(64))",
        "CREATE TABLE shop.tickets (id BIGINT AUTO_INCREMENT PRIMARY KEY, customer_id VARCHAR(32) COLLATE utf8mb4_bin)",
        "CREATE TABLE shop.events (id BIGINT AUTO_INCREMENT PRIMARY KEY, region VARCHAR(8), what INT)",
        "CREATE TABLE shop.ledger (id BIGINT AUTO_INCREMENT PRIMARY KEY, account_id BIGINT, amount DECIMAL(10,2))",
        "CREATE TABLE shop.sbtest1 (id INTEGER NOT NULL AUTO_INCREMENT, k INTEGER DEFAULT '0' NOT NULL,"
                + " c CHAR(120) DEFAULT '' NOT NULL, pad CHAR(60) DEFAULT '' NOT NULL, PRIMARY KEY (id))",
        // Seven columns each: the corpus copies currencies into countries with SELECT *.
        "CREATE TABLE shop.countries (code CHAR(3) PRIMARY KEY, name VARCHAR(64), eu TINYINT, currency CHAR(3),"
                + " orders INT, vat DECIMAL(5,2), id BIGINT)",
        "CREATE TABLE shop.currencies (code CHAR(3) PRIMARY KEY, name VARCHAR(64), eu TINYINT, currency CHAR(3),"
                + " orders INT, vat DECIMAL(5,2), id BIGINT)",
        "CREATE DATABASE other",
        "CREATE TABLE other.things (id INT)",
    };

    /** The unsharded tables, each on its own shard only (ShopSchema: settings on s0, audit_log on s1). */
    private static final Map<String, String> UNSHARDED = Map.of(
            "s0", "CREATE TABLE shop.settings (id BIGINT AUTO_INCREMENT PRIMARY KEY, name VARCHAR(64), value INT, country CHAR(2))",
            "s1", "CREATE TABLE shop.audit_log (id BIGINT AUTO_INCREMENT PRIMARY KEY, at DATETIME)");

    /** A few rows through the proxy, so merges, sorts and HAVING work on real rows. */
    private static final String[] ROWS = {
        "INSERT INTO countries (code, name, eu, currency, vat, id) VALUES ('de', 'Germany', 1, 'EUR', 19, 1),"
                + " ('us', 'United States', 0, 'USD', 0, 2)",
        "INSERT INTO currencies (code, name) VALUES ('EUR', 'Euro'), ('USD', 'US Dollar')",
        "INSERT INTO customers (id, name, city, country, status, created_at) VALUES (1, 'Ada', 'London', 'uk', 'gold', '2019-05-01'),"
                + " (2, 'Grace', 'Arlington', 'us', 'silver', '2021-01-01'), (3, 'Linus', 'Helsinki', 'fi', 'gold', '2022-02-02'),"
                + " (5, 'Barbara', 'Boston', 'us', 'none', '2023-03-03')",
        "INSERT INTO orders (id, customer_id, total, status, country, c, created_at) VALUES"
                + " (1, 1, 120.00, 'paid', 'de', 'c1', '2024-01-01'), (2, 2, 80.50, 'open', 'us', 'c2', '2024-02-01'),"
                + " (3, 3, 1500.00, 'paid', 'de', 'c3', '2025-03-01'), (4, 5, 15.00, 'void', 'us', 'c4', '2025-04-01'),"
                + " (5, 1, 300.00, 'open', 'de', 'c5', '2025-05-01')",
        "INSERT INTO order_items (customer_id, order_id, qty) VALUES (1, 1, 2), (2, 2, 1), (3, 3, 5), (1, 5, 1)",
        "INSERT INTO settings (name, value, country) VALUES ('a', 1, 'de')",
        "INSERT INTO sbtest1 (id, k, c, pad) VALUES (5000, 1, 'x', 'y'), (5023, 2, 'y', 'z'), (5099, 3, 'z', 'x')",
    };

    private Topology topology;
    private ProxyFixture proxy;
    private final Map<String, Connection> connections = new LinkedHashMap<>();

    record Case(String file, int line, String schema, String sql, List<String> expected) {
        String where() {
            return file + ":" + line;
        }
    }

    @BeforeAll
    void start() throws SQLException {
        topology = Topology.start(TopologySpec.builder().shard("s0", Engine.INNODB, 0).shard("s1", Engine.ROCKSDB, 0).build());
        for (String shard : List.of("s0", "s1")) {
            topology.shard(shard).primary().execute(DDL);
            topology.shard(shard).primary().execute(UNSHARDED.get(shard));
        }
        Node s1 = topology.shard("s1").primary();
        assertThat(s1.queryString("SELECT ENGINE FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'shop' AND TABLE_NAME = 'orders'"))
                .isEqualTo("ROCKSDB");
        long begin = System.nanoTime();
        proxy = ProxyFixture.start(topology, ProxyFixture.HALVES, CONFIG);
        System.out.printf("[golden-corpus-it] packaged proxy up in %d ms%n", (System.nanoTime() - begin) / 1_000_000);
        try (Statement statement = connection("shop").createStatement()) {
            for (String row : ROWS) {
                statement.execute(row);
            }
        }
    }

    @AfterAll
    void stop() throws SQLException {
        for (Connection connection : connections.values()) {
            connection.close();
        }
        if (proxy != null) {
            assertThat(proxy.output()).as("the proxy's log names no internal error").doesNotContain("Internal error");
        }
        ProxyFixture.stop(proxy, topology);
    }

    /** One connection per current schema ({@code @schema}), server-side prepared statements, multi-statements allowed. */
    private Connection connection(String schema) throws SQLException {
        String key = schema == null ? "" : schema;
        Connection connection = connections.get(key);
        if (connection == null) {
            connection = proxy.mariadb(key, "useServerPrepStmts=true&allowMultiQueries=true");
            // The corpus plans DDL without engines; the engine-aware DDL gate (docs/engines.md) refuses DDL that
            // blocks writes on the MyRocks shard unless the session allows it, as an operator would here.
            try (Statement allow = connection.createStatement()) {
                allow.execute("SET SESSION shardgate_allow_blocking_ddl = ON");
            }
            connections.put(key, connection);
        }
        return connection;
    }

    @Test
    @Order(2)
    void everyStatementGetsItsExpectedAnswerOrRefusal() throws SQLException {
        List<Case> cases = cases();
        assertThat(cases).as("PlannerGoldenTest holds at least 120 cases").hasSizeGreaterThanOrEqualTo(120);
        List<String> failures = new ArrayList<>();
        int refused = 0;
        int planned = 0;
        int sessionApplied = 0;
        int prepared = 0;
        int backendErrors = 0;
        List<String> known = new ArrayList<>();
        for (Case golden : cases) {
            if (KNOWN.containsKey(golden.sql())) {
                SQLException e = send(connection(golden.schema()), golden.sql());
                String actual = e == null ? "no error" : describe(e);
                if (!actual.equals(KNOWN.get(golden.sql()))) {
                    failures.add(golden.where() + " " + golden.sql() + ": listed in KNOWN with " + KNOWN.get(golden.sql())
                            + ", but got " + actual + " (if it is fixed, remove it from KNOWN)");
                }
                known.add(golden.where() + " " + golden.sql() + ": " + actual);
                continue;
            }
            Matcher error = ERROR.matcher(golden.expected().get(0));
            Connection connection = connection(golden.schema());
            if (golden.sql().contains("?")) {
                prepared++;
            }
            if (error.matches() && error.group(3).startsWith(SESSION_APPLIES)) {
                sessionApplied++;
                SQLException e = send(connection, golden.sql());
                if (e != null) {
                    failures.add(golden.where() + " " + golden.sql() + ": the session applies it, but it got " + describe(e));
                }
                try (Statement rollback = connection.createStatement()) {
                    rollback.execute("ROLLBACK");
                    rollback.execute("UNLOCK TABLES"); // after a LOCK TABLES the session applied; an OK without one
                }
            } else if (error.matches()) {
                refused++;
                SQLException e = send(connection, golden.sql());
                String expected = golden.expected().get(0);
                String actual = e == null ? "no error" : describe(e);
                if (!expected.equals(actual)) {
                    failures.add(golden.where() + " " + golden.sql() + "\n    expected: " + expected + "\n    actual:   " + actual);
                }
            } else {
                planned++;
                // A statement with ? is explained as text, its placeholders shown as ?0, ?1, ... as the golden plans have them.
                String explained = explain(connection, golden.sql());
                String expected = String.join("\n", golden.expected());
                // EXPLAIN SHARDGATE /* c */ S plans S without its leading comment, which the golden plan of S keeps.
                Matcher comment = LEADING_COMMENT.matcher(golden.sql());
                if (comment.lookingAt()) {
                    expected = expected.replace(comment.group(), "");
                }
                if (!expected.equals(explained)) {
                    failures.add(golden.where() + " EXPLAIN SHARDGATE " + golden.sql() + "\n    expected:\n" + expected
                            + "\n    actual:\n" + explained);
                }
                SQLException e = send(connection, golden.sql());
                if (e != null) {
                    if (isWrite(golden.sql()) && BACKEND_WRITE_ERRORS.contains(e.getErrorCode()) && !e.getMessage().contains("Shardgate")) {
                        backendErrors++;
                    } else {
                        failures.add(golden.where() + " " + golden.sql() + ": planned, but got " + describe(e));
                    }
                }
                String undo = UNDO.get(golden.sql());
                if (undo != null) {
                    try (Statement statement = connection.createStatement()) {
                        statement.execute(undo);
                    }
                }
            }
        }
        System.out.printf("[golden-corpus-it] %d statements sent through the packaged jar: %d planned (%d of them writes or DDL"
                        + " answered by a backend error), %d refused by Shardgate as expected, %d applied by the session;"
                        + " %d prepared with parameters; %d known not to get their answer yet %s; %d failures%n", cases.size(),
                planned, backendErrors, refused, sessionApplied, prepared, known.size(), known, failures.size());
        assertThat(failures).as("cases whose answer through the packaged proxy differs from the golden file").isEmpty();
        assertThat(planned + refused + sessionApplied + known.size()).isEqualTo(cases.size());
        assertThat(refused).as("the corpus's refusals").isGreaterThanOrEqualTo(25);
    }

    /**
     * Issue 16's report: through the packaged jar a column alias without AS answered ERR 1105
     * (NoClassDefFoundError: org/apache/commons/lang3/tuple/Pair), on a point read and on a locking read.
     */
    @Test
    @Order(1) // before the corpus, which rewrites and truncates these rows
    void aColumnAliasWithoutAsAnswersThroughThePackagedJar() throws SQLException {
        try (Statement statement = connection("shop").createStatement()) {
            try (ResultSet rows = statement.executeQuery("SELECT name n FROM customers WHERE id = 2")) {
                assertThat(rows.getMetaData().getColumnLabel(1)).isEqualTo("n");
                assertThat(rows.next()).isTrue();
                assertThat(rows.getString("n")).isEqualTo("Grace");
                assertThat(rows.next()).isFalse();
            }
            statement.execute("BEGIN");
            try (ResultSet rows = statement.executeQuery("SELECT c, total t, status s FROM orders WHERE customer_id = 3 FOR UPDATE")) {
                assertThat(rows.next()).isTrue();
                assertThat(rows.getString("t")).isEqualTo("1500.00");
                assertThat(rows.getString("s")).isEqualTo("paid");
            } finally {
                statement.execute("ROLLBACK");
            }
        }
    }

    /**
     * Issue 16: COM_STMT_PREPARE in a sharded deployment went verbatim to the first shard. Now the statement
     * is planned at PREPARE (a refusal is the planner's), described by a shard its plan routes to (audit_log
     * exists on s1 only here; PARTITION naming a shard is gone from what the shard prepares), and the client
     * sees as many parameters as its statement has {@code ?}. A prepared EXPLAIN SHARDGATE is answered by the
     * proxy, placeholders shown as in the golden plans.
     */
    @Test
    @Order(1)
    void preparedStatementsAreDescribedByAShardTheirPlanRoutesTo() throws SQLException {
        Connection connection = connection("shop");
        try (PreparedStatement insert = connection.prepareStatement("INSERT INTO audit_log (at) VALUES (?)")) {
            assertThat(insert.getParameterMetaData().getParameterCount()).isEqualTo(1);
            insert.setString(1, "2026-01-02 03:04:05");
            assertThat(insert.executeUpdate()).isEqualTo(1);
        }
        try (PreparedStatement select = connection.prepareStatement("SELECT id, at FROM audit_log WHERE at = ?")) {
            assertThat(select.getParameterMetaData().getParameterCount()).isEqualTo(1);
            assertThat(select.getMetaData().getColumnCount()).as("columns described at PREPARE").isEqualTo(2);
            assertThat(select.getMetaData().getColumnLabel(2)).isEqualTo("at");
            select.setString(1, "2026-01-02 03:04:05");
            try (ResultSet rows = select.executeQuery()) {
                assertThat(rows.next()).isTrue();
                assertThat(rows.getString("at")).startsWith("2026-01-02 03:04:05");
                assertThat(rows.next()).isFalse();
            }
        }
        assertThat(topology.shard("s1").primary().queryString("SELECT COUNT(*) FROM shop.audit_log WHERE at = '2026-01-02 03:04:05'"))
                .isEqualTo("1");
        // MySQL Connector/J reads the PREPARE response strictly (parameter and column definitions, EOF packets).
        try (Connection mysql = proxy.mysql("shop", "useServerPrepStmts=true&cachePrepStmts=false");
             PreparedStatement select = mysql.prepareStatement("SELECT id, at FROM audit_log PARTITION (s1) WHERE at = ?")) {
            assertThat(select.getParameterMetaData().getParameterCount()).isEqualTo(1);
            select.setString(1, "2026-01-02 03:04:05");
            try (ResultSet rows = select.executeQuery()) {
                assertThat(rows.getMetaData().getColumnCount()).isEqualTo(2);
                assertThat(rows.next()).isTrue();
                assertThat(rows.next()).isFalse();
            }
        }
        // Operators merge the shards' rows (the shards' SQL has a helper column): the client still sees its two columns.
        String merged = "SELECT status, AVG(total) FROM orders PARTITION (s0, s1) WHERE customer_id > ? GROUP BY status";
        try (PreparedStatement select = connection.prepareStatement(merged)) {
            assertThat(select.getMetaData().getColumnCount()).isEqualTo(2);
            select.setInt(1, 0);
            try (ResultSet rows = select.executeQuery()) {
                int count = 0;
                while (rows.next()) {
                    count++;
                }
                assertThat(count).as("the statuses of the seeded orders").isEqualTo(3);
            }
        }
        // The planner's refusal at PREPARE, as the text form gets it.
        assertThatThrownBy(() -> {
            try (PreparedStatement refused = connection.prepareStatement("SELECT * FROM settings PARTITION (s1) WHERE id = ?")) {
                refused.setInt(1, 1);
                refused.executeQuery().close();
            }
        }).isInstanceOfSatisfying(SQLException.class, e -> assertThat(describe(e))
                .isEqualTo("ERROR 1735 (HY000): Unknown partition 's1' in table 'settings'"));
        String explain = "EXPLAIN SHARDGATE SELECT name FROM customers WHERE id = ?";
        List<String> plan = new ArrayList<>();
        try (PreparedStatement prepared = connection.prepareStatement(explain)) {
            assertThat(prepared.getParameterMetaData().getParameterCount()).isEqualTo(1);
            prepared.setInt(1, 2);
            try (ResultSet rows = prepared.executeQuery()) {
                while (rows.next()) {
                    plan.add(rows.getString(1));
                }
            }
        }
        assertThat(plan).containsExactly(
                "Route BY_KEY shop.customers shards=per execution role=REPLICA where customers.id = ?0 hash(integer)",
                "  sql: SELECT name FROM customers WHERE id = ? [?0]");
    }

    /** The statement's EXPLAIN SHARDGATE rows, one line each ({@code \n} inside a line written as PlannerGoldenTest does). */
    private static String explain(Connection connection, String sql) {
        String explain = sql.regionMatches(true, 0, "EXPLAIN SHARDGATE", 0, 17) ? sql : "EXPLAIN SHARDGATE " + sql;
        List<String> lines = new ArrayList<>();
        try (Statement statement = connection.createStatement(); ResultSet rows = statement.executeQuery(explain)) {
            while (rows.next()) {
                lines.add(rows.getString(1).replace("\n", "\\n"));
            }
        } catch (SQLException e) {
            return describe(e);
        }
        if (explain != sql) {
            return String.join("\n", lines);
        }
        // EXPLAIN SHARDGATE itself: its plan is StaticRows over the rows it answers.
        List<String> plan = new ArrayList<>();
        plan.add("StaticRows(plan)");
        lines.forEach(line -> plan.add("  | " + line));
        return String.join("\n", plan);
    }

    /** Sends {@code sql}, prepared when it has parameters; returns its error, or null. */
    private static SQLException send(Connection connection, String sql) {
        try {
            if (sql.contains("?")) {
                try (PreparedStatement statement = connection.prepareStatement(sql)) {
                    bind(statement, sql);
                    statement.execute();
                }
            } else {
                try (Statement statement = connection.createStatement()) {
                    statement.execute(sql);
                }
            }
            return null;
        } catch (SQLException e) {
            return e;
        }
    }

    /** Binds 1001, 1002, ... to the statement's parameters, or what {@link #PARAMETERS} names for {@code sql}. */
    private static void bind(PreparedStatement statement, String sql) throws SQLException {
        List<Object> values = PARAMETERS.get(sql);
        int count = statement.getParameterMetaData().getParameterCount();
        for (int i = 1; i <= count; i++) {
            statement.setObject(i, values != null ? values.get(i - 1) : 1000 + i);
        }
    }

    /** The error as the golden files write it. */
    private static String describe(SQLException e) {
        return "ERROR " + e.getErrorCode() + " (" + e.getSQLState() + "): " + CONNECTION_PREFIX.matcher(e.getMessage()).replaceFirst("");
    }

    private static boolean isWrite(String sql) {
        String verb = sql.stripLeading().split("[\\s(]", 2)[0].toUpperCase(java.util.Locale.ROOT);
        return Set.of("INSERT", "REPLACE", "UPDATE", "DELETE", "CREATE", "ALTER", "DROP", "TRUNCATE", "RENAME").contains(verb);
    }

    /** PlannerGoldenTest's file format: {@code ##} comments, {@code @schema NAME|-}, {@code > SQL} then expected lines to a blank line. */
    static List<Case> cases() {
        List<Case> cases = new ArrayList<>();
        for (String file : FILES) {
            List<String> lines;
            try {
                lines = Files.readAllLines(CORPUS.resolve(file), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            String schema = "shop";
            for (int i = 0; i < lines.size(); i++) {
                String line = lines.get(i);
                if (line.startsWith("@schema ")) {
                    String name = line.substring(8).strip();
                    schema = name.equals("-") ? null : name;
                } else if (line.startsWith("> ")) {
                    int start = i;
                    List<String> expected = new ArrayList<>();
                    while (i + 1 < lines.size() && !lines.get(i + 1).isEmpty()) {
                        expected.add(lines.get(++i));
                    }
                    cases.add(new Case(file, start + 1, schema, line.substring(2).replace("\\n", "\n"), expected));
                }
            }
        }
        return cases;
    }
}
