package io.shardgate.it;

import io.shardgate.replication.topology.Node;
import io.shardgate.replication.topology.Topology;
import io.shardgate.replication.topology.TopologySpec;
import io.shardgate.storage.Engine;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 16, part 1: every byte of a value reaches the backend and comes back unchanged, whatever
 * it spells (function names, system variables, comments, quotes, NUL), whatever its character set
 * (UTF-8 with 4-byte characters, latin1 from a latin1 client, bytes that are not UTF-8), through
 * an unsharded Shardgate and a sharded one (an InnoDB and a MyRocks shard).
 *
 * <p>Each value of the corpus is written with the text protocol (raw statement bytes from a socket
 * client, as {@code '...'}, {@code _binary'...'} and {@code X'...'}) and with server-side prepared
 * statements (MariaDB Connector/J and MySQL Connector/J, {@code setBytes} and {@code setString}) and
 * with PyMySQL (its own client-side escaping, utf8mb4 and latin1 connections),
 * then read back through Shardgate ({@code SELECT v FROM t}, and the literal itself with
 * {@code SELECT '<literal>'}) and from the backend directly ({@code HEX(v)}): every byte equal.
 * Mismatches are collected and reported together, each naming value, path and deployment.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ByteFidelityIT {
    private static final String SCHEMA = "fid";
    private static final String TABLE_DDL = "CREATE TABLE fid.t (id BIGINT PRIMARY KEY, v VARBINARY(4096))";
    private static final String SHARDED_CONFIG = """
            schemas:
              - name: fid
                tables:
                  t: { shard_key: id, vindex: hash }
            """;
    private static final Charset CP1252 = Charset.forName("windows-1252");

    /** How a corpus value is written in a statement. */
    enum Kind {
        /** A string literal from a utf8mb4 client. */
        UTF8,
        /** A string literal from a latin1 client (SET NAMES latin1): the value's bytes are latin1. */
        LATIN1,
        /** Bytes that need not be valid in any character set: {@code _binary'...'} and {@code X'...'}. */
        BINARY
    }

    record Value(String label, Kind kind, byte[] bytes) {
    }

    private static final List<Value> CORPUS = corpus();

    private Topology topology;
    private ProxyFixture unsharded;
    private ProxyFixture sharded;

    @BeforeAll
    void start() {
        topology = Topology.start(TopologySpec.builder()
                .shard("s0", Engine.INNODB, 0)
                .shard("s1", Engine.ROCKSDB, 0)
                .shard("u", Engine.INNODB, 0)
                .build());
        for (Node node : primaries()) {
            node.execute("CREATE DATABASE " + SCHEMA, TABLE_DDL);
        }
        assertThat(topology.shard("s1").primary().queryString(
                "SELECT ENGINE FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'fid' AND TABLE_NAME = 't'")).isEqualTo("ROCKSDB");
        Map<String, Map<String, String>> unshardedKeys = new LinkedHashMap<>();
        unshardedKeys.put("u", Map.of());
        unsharded = ProxyFixture.start(topology, unshardedKeys, "");
        sharded = ProxyFixture.start(topology, ProxyFixture.HALVES, SHARDED_CONFIG);
    }

    @AfterAll
    void stop() {
        if (unsharded != null) {
            unsharded.close();
        }
        ProxyFixture.stop(sharded, topology);
    }

    @Test
    void theCorpusIsLargeEnough() {
        assertThat(CORPUS).hasSizeGreaterThanOrEqualTo(40);
        assertThat(CORPUS).extracting(Value::kind).contains(Kind.UTF8, Kind.LATIN1, Kind.BINARY);
    }

    @Test
    void unshardedKeepsEveryByte() throws Exception {
        everyByteSurvives("unsharded", unsharded, List.of(topology.shard("u").primary()));
    }

    @Test
    void shardedKeepsEveryByte() throws Exception {
        everyByteSurvives("sharded", sharded, List.of(topology.shard("s0").primary(), topology.shard("s1").primary()));
    }

    @Test
    void connectionIdIsRewrittenOnlyWhereItIsCode() throws Exception {
        for (ProxyFixture proxy : List.of(unsharded, sharded)) {
            try (Connection connection = proxy.mariadb(SCHEMA, "");
                 Statement statement = connection.createStatement()) {
                long id = connection.unwrap(org.mariadb.jdbc.Connection.class).getThreadId();
                assertThat(string(statement, "SELECT 'CONNECTION_ID()'")).isEqualTo("CONNECTION_ID()");
                assertThat(string(statement, "SELECT CONNECTION_ID()")).isEqualTo(Long.toString(id));
                assertThat(string(statement, "SELECT CONCAT('CONNECTION_ID() = ', CONNECTION_ID() /* CONNECTION_ID() */)"))
                        .isEqualTo("CONNECTION_ID() = " + id);
                assertThat(string(statement, "SELECT '@@transaction_isolation', @@transaction_isolation IS NOT NULL"))
                        .isEqualTo("@@transaction_isolation");
            }
        }
        // With NO_BACKSLASH_ESCAPES a backslash ends nothing: the second literal is still a string. (Unsharded only: the
        // sharded planner's parser does not model NO_BACKSLASH_ESCAPES.)
        try (Connection connection = unsharded.mariadb(SCHEMA, ""); Statement statement = connection.createStatement()) {
            statement.execute("SET SESSION sql_mode = CONCAT(@@sql_mode, ',NO_BACKSLASH_ESCAPES')");
            try (ResultSet rows = statement.executeQuery("SELECT 'a\\', 'CONNECTION_ID()'")) {
                assertThat(rows.next()).isTrue();
                assertThat(rows.getString(1)).isEqualTo("a\\");
                assertThat(rows.getString(2)).isEqualTo("CONNECTION_ID()");
            }
        }
    }

    @Test
    void preparedStatementTextKeepsALatin1ClientsBytes() throws Exception {
        byte[] literal = "àé£ CONNECTION_ID()".getBytes(CP1252);
        for (ProxyFixture proxy : List.of(unsharded, sharded)) {
            long base = proxy == sharded ? 300_000 : 400_000;
            try (Connection connection = proxy.mysql(SCHEMA, "useServerPrepStmts=true&useSSL=false&characterEncoding=Cp1252");
                 PreparedStatement insert = connection.prepareStatement("INSERT INTO fid.t (id, v) VALUES (?, 'àé£ CONNECTION_ID()')");
                 PreparedStatement select = connection.prepareStatement("SELECT HEX(v), HEX('àé£ CONNECTION_ID()') FROM fid.t WHERE id = ?")) {
                // Enough executions to land on other pooled backend connections, where the statement is prepared again.
                for (long id = base; id < base + 12; id++) {
                    insert.setLong(1, id);
                    insert.executeUpdate();
                    select.setLong(1, id);
                    try (ResultSet rows = select.executeQuery()) {
                        assertThat(rows.next()).isTrue();
                        assertThat(rows.getString(1)).as("stored through %s", proxy == sharded ? "sharded" : "unsharded").isEqualTo(hex(literal));
                        assertThat(rows.getString(2)).isEqualTo(hex(literal));
                    }
                }
            }
        }
    }

    private static String string(Statement statement, String sql) throws SQLException {
        try (ResultSet rows = statement.executeQuery(sql)) {
            assertThat(rows.next()).isTrue();
            return rows.getString(1);
        }
    }

    private void everyByteSurvives(String deployment, ProxyFixture proxy, List<Node> backends) throws Exception {
        SoftAssertions soft = new SoftAssertions();
        Map<Long, Expected> written = new LinkedHashMap<>();
        long base = deployment.equals("sharded") ? 100_000 : 200_000;

        // Text protocol: the raw statement bytes, from a utf8mb4 and from a latin1 client.
        try (Raw utf8 = Raw.login(proxy.port(), null); Raw latin1 = Raw.login(proxy.port(), "latin1")) {
            long id = base;
            for (Value value : CORPUS) {
                Raw client = value.kind() == Kind.LATIN1 ? latin1 : utf8;
                for (byte[] literal : literals(value)) {
                    String path = "text " + new String(literal, 0, Math.min(literal.length, 8), StandardCharsets.ISO_8859_1) + "...";
                    client.update(concat(ascii("INSERT INTO fid.t (id, v) VALUES (" + id + ", "), literal, ascii(")")));
                    written.put(id, new Expected(value, path));
                    byte[] selected = client.first(concat(ascii("SELECT "), literal));
                    soft.assertThat(hex(selected)).as("%s %s SELECT <literal> of %s", deployment, path, value.label())
                            .isEqualTo(hex(value.bytes()));
                    id++;
                }
            }
            for (Map.Entry<Long, Expected> entry : written.entrySet()) {
                Raw client = entry.getValue().value().kind() == Kind.LATIN1 ? latin1 : utf8;
                byte[] read = client.first(ascii("SELECT v FROM fid.t WHERE id = " + entry.getKey()));
                soft.assertThat(hex(read)).as("%s %s SELECT v of %s", deployment, entry.getValue().path(), entry.getValue().value().label())
                        .isEqualTo(hex(entry.getValue().value().bytes()));
            }
        }

        // Prepared statements (binary protocol): setBytes for every value, setString for text.
        long prepared = base + 10_000;
        prepared = preparedWrites(deployment, "MariaDB Connector/J", () -> proxy.mariadb(SCHEMA, "useServerPrepStmts=true"),
                Kind.UTF8, StandardCharsets.UTF_8, prepared, written, soft);
        prepared = preparedWrites(deployment, "MySQL Connector/J", () -> proxy.mysql(SCHEMA, "useServerPrepStmts=true&useSSL=false"),
                Kind.UTF8, StandardCharsets.UTF_8, prepared, written, soft);
        preparedWrites(deployment, "MySQL Connector/J latin1", () -> proxy.mysql(SCHEMA,
                        "useServerPrepStmts=true&useSSL=false&characterEncoding=Cp1252"),
                Kind.LATIN1, CP1252, prepared, written, soft);

        // PyMySQL (its own escaping, text protocol): a utf8mb4 client for text and bytes, a latin1 client (latin1 in its
        // handshake) for latin1 text.
        pyMySql(deployment, proxy, "utf8mb4", base + 50_000, written, soft);
        pyMySql(deployment, proxy, "latin1", base + 60_000, written, soft);

        // The backends themselves hold every byte.
        Map<Long, String> stored = new LinkedHashMap<>();
        for (Node node : backends) {
            try (Connection direct = node.connect(); Statement statement = direct.createStatement();
                 ResultSet rows = statement.executeQuery("SELECT id, HEX(v) FROM fid.t WHERE id BETWEEN " + base + " AND " + (base + 99_999))) {
                while (rows.next()) {
                    stored.put(rows.getLong(1), rows.getString(2));
                }
            }
        }
        for (Map.Entry<Long, Expected> entry : written.entrySet()) {
            soft.assertThat(stored.get(entry.getKey())).as("%s %s stored value of %s (id %d, on the backend)", deployment,
                    entry.getValue().path(), entry.getValue().value().label(), entry.getKey()).isEqualTo(hex(entry.getValue().value().bytes()));
        }
        System.out.printf("[byte-fidelity-it] %s: %d writes of %d corpus values checked%n", deployment, written.size(), CORPUS.size());
        soft.assertAll();
    }

    private record Expected(Value value, String path) {
    }

    private interface Connect {
        Connection open() throws SQLException;
    }

    /**
     * Writes the corpus with a driver's server-side prepared statements: setBytes for every value,
     * and setString for values of {@code textKind} (the driver encodes the string in {@code encoding});
     * reads each back with a prepared SELECT. Returns the next free id.
     */
    private static long preparedWrites(String deployment, String driver, Connect connect, Kind textKind, Charset encoding, long id,
                                       Map<Long, Expected> written, SoftAssertions soft) throws SQLException {
        try (Connection connection = connect.open();
             PreparedStatement insert = connection.prepareStatement("INSERT INTO fid.t (id, v) VALUES (?, ?)");
             PreparedStatement select = connection.prepareStatement("SELECT v, ? FROM fid.t WHERE id = ?")) {
            for (Value value : CORPUS) {
                List<Object> parameters = new ArrayList<>();
                if (!textKind.equals(Kind.LATIN1)) {
                    parameters.add(value.bytes());
                }
                String decoded = new String(value.bytes(), encoding);
                // The five bytes cp1252 leaves undefined have no Java char the driver could send back as them.
                if (value.kind() == textKind && java.util.Arrays.equals(decoded.getBytes(encoding), value.bytes())) {
                    parameters.add(decoded);
                }
                for (Object parameter : parameters) {
                    String path = driver + (parameter instanceof String ? " setString" : " setBytes");
                    insert.setLong(1, id);
                    if (parameter instanceof String text) {
                        insert.setString(2, text);
                    } else {
                        insert.setBytes(2, (byte[]) parameter);
                    }
                    insert.executeUpdate();
                    written.put(id, new Expected(value, path));
                    if (parameter instanceof String text) {
                        select.setString(1, text);
                    } else {
                        select.setBytes(1, (byte[]) parameter);
                    }
                    select.setLong(2, id);
                    try (ResultSet rows = select.executeQuery()) {
                        soft.assertThat(rows.next()).as("%s %s row %d", deployment, path, id).isTrue();
                        soft.assertThat(hex(rows.getBytes(1))).as("%s %s SELECT v of %s", deployment, path, value.label())
                                .isEqualTo(hex(value.bytes()));
                        if (parameter instanceof String text) {
                            soft.assertThat(rows.getString(2)).as("%s %s SELECT ? of %s", deployment, path, value.label()).isEqualTo(text);
                        } else {
                            soft.assertThat(hex(rows.getBytes(2))).as("%s %s SELECT ? of %s", deployment, path, value.label())
                                    .isEqualTo(hex(value.bytes()));
                        }
                    }
                    id++;
                }
            }
        }
        return id;
    }

    private void pyMySql(String deployment, ProxyFixture proxy, String charset, long id, Map<Long, Expected> written,
                         SoftAssertions soft) throws Exception {
        com.fasterxml.jackson.databind.ObjectMapper json = new com.fasterxml.jackson.databind.ObjectMapper();
        List<List<Object>> values = new ArrayList<>();
        Map<Long, Value> byId = new LinkedHashMap<>();
        String path = "PyMySQL " + charset;
        for (Value value : CORPUS) {
            boolean latin1 = charset.equals("latin1");
            String kind;
            if (latin1 && value.kind() == Kind.LATIN1
                    && java.util.Arrays.equals(new String(value.bytes(), CP1252).getBytes(CP1252), value.bytes())) {
                kind = "text"; // PyMySQL's latin1 is Python's cp1252, which has no char for its five undefined bytes
            } else if (!latin1 && value.kind() == Kind.UTF8) {
                kind = "text";
            } else if (!latin1 && value.kind() == Kind.BINARY) {
                kind = "bytes";
            } else {
                continue;
            }
            values.add(List.of(id, kind, HexFormat.of().formatHex(value.bytes())));
            byId.put(id, value);
            written.put(id, new Expected(value, path));
            id++;
        }
        Map<String, Object> spec = new LinkedHashMap<>();
        spec.put("port", proxy.port());
        spec.put("user", ProxyFixture.USER);
        spec.put("password", ProxyFixture.PASSWORD);
        spec.put("database", SCHEMA);
        spec.put("charset", charset);
        spec.put("values", values);
        java.nio.file.Path script = java.nio.file.Path.of(getClass().getResource("/byte_fidelity_client.py").toURI());
        Cli.Result result = Cli.run(List.of("/usr/bin/python3", script.toString()), json.writeValueAsString(spec), 120);
        assertThat(result.status()).as("%s %s: %s", deployment, path, result.stderr()).isZero();
        int answered = 0;
        for (String line : result.stdout().split("\n")) {
            if (line.isBlank()) {
                continue;
            }
            com.fasterxml.jackson.databind.JsonNode row = json.readTree(line);
            Value value = byId.get(row.get("id").asLong());
            soft.assertThat(row.get("stored").asText().toUpperCase(java.util.Locale.ROOT)).as("%s %s SELECT v of %s", deployment, path,
                    value.label()).isEqualTo(hex(value.bytes()));
            soft.assertThat(row.get("echoed").asText().toUpperCase(java.util.Locale.ROOT)).as("%s %s SELECT %%s of %s", deployment, path,
                    value.label()).isEqualTo(hex(value.bytes()));
            answered++;
        }
        assertThat(answered).as("%s %s rows", deployment, path).isEqualTo(byId.size());
    }

    private List<Node> primaries() {
        return List.of(topology.shard("s0").primary(), topology.shard("s1").primary(), topology.shard("u").primary());
    }

    // ----- the corpus -----

    private static List<Value> corpus() {
        List<Value> values = new ArrayList<>();
        String[] utf8 = {
                "note: call CONNECTION_ID() later",
                "see @@transaction_isolation docs",
                "@@transaction_read_only",
                "@@session.transaction_isolation and @@GLOBAL.Transaction_Read_Only",
                "@@local.transaction_isolation",
                "LAST_INSERT_ID() then FOUND_ROWS() and ROW_COUNT()",
                "connection_id ( )",
                "@@autocommit @@sql_mode @@tx_isolation @@shardgate_max_lag_ms @@shardgate_causal_token",
                "/*! CONNECTION_ID() */",
                "/*!50000 SELECT @@transaction_isolation */",
                "/* shardgate */ /*+ shardgate primary */",
                "/*+ shardgate max_lag_ms=0 */ SELECT CONNECTION_ID()",
                "-- CONNECTION_ID()\nSELECT 1",
                "# @@transaction_isolation\n",
                "it's 'single' \"double\" `back` ''",
                "back\\slash \\' \\\\ \\n \\0 \\%",
                "NUL\0inside\0",
                "😀 emoji, 𝄞 clef, 🇫🇷 flag",
                "日本語 中文 한국어 Ελληνικά",
                "KILL 1; KILL QUERY 2",
                "SHOW WARNINGS",
                "SET TRANSACTION ISOLATION LEVEL SERIALIZABLE",
                "SET shardgate_max_lag_ms = 5; SHOW SHARDGATE BACKENDS",
                "? ?, ? placeholders",
                "DROP TABLE t; CREATE TEMPORARY TABLE x (i INT); ALTER TABLE t ADD c INT",
                "",
                "àéîõü £§ as UTF-8",
        };
        for (String text : utf8) {
            values.add(new Value("utf8 '" + printable(text) + "'", Kind.UTF8, text.getBytes(StandardCharsets.UTF_8)));
        }
        String[] latin1 = {
                "àéîõü £§",
                "café CONNECTION_ID()",
                "€ ‚ ƒ „ … † ‡ ˆ ‰ Š ‹ Œ Ž ‘ ’ “ ” • – — ˜ ™ š › œ ž Ÿ",
                "@@transaction_read_only ÿ þ ß",
                "naïve façade -- Ærø",
        };
        for (String text : latin1) {
            values.add(new Value("latin1 '" + printable(text) + "'", Kind.LATIN1, text.getBytes(CP1252)));
        }
        values.add(new Value("latin1 undefined cp1252 bytes", Kind.LATIN1, new byte[] {(byte) 0x81, (byte) 0x8D, (byte) 0x8F, (byte) 0x90, (byte) 0x9D}));
        byte[] high = new byte[128];
        for (int i = 0; i < high.length; i++) {
            high[i] = (byte) (0x80 + i);
        }
        values.add(new Value("latin1 bytes 0x80-0xFF", Kind.LATIN1, high));
        byte[] all = new byte[256];
        for (int i = 0; i < all.length; i++) {
            all[i] = (byte) i;
        }
        values.add(new Value("binary 0x00-0xFF", Kind.BINARY, all));
        values.add(new Value("binary lone 0x80", Kind.BINARY, new byte[] {(byte) 0x80}));
        values.add(new Value("binary C3 28", Kind.BINARY, new byte[] {(byte) 0xC3, 0x28}));
        values.add(new Value("binary @@transaction_read_only + FF FE", Kind.BINARY,
                concat(ascii("@@transaction_read_only"), new byte[] {(byte) 0xFF, (byte) 0xFE})));
        values.add(new Value("binary CONNECTION_ID() + 00 80", Kind.BINARY, concat(ascii("CONNECTION_ID()"), new byte[] {0, (byte) 0x80})));
        values.add(new Value("binary surrogate ED A0 80", Kind.BINARY, new byte[] {(byte) 0xED, (byte) 0xA0, (byte) 0x80}));
        values.add(new Value("binary overlong C0 80", Kind.BINARY, new byte[] {(byte) 0xC0, (byte) 0x80}));
        values.add(new Value("binary past U+10FFFF F4 90 80 80", Kind.BINARY, new byte[] {(byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80}));
        values.add(new Value("binary truncated E2 82", Kind.BINARY, new byte[] {(byte) 0xE2, (byte) 0x82}));
        values.add(new Value("binary quote backslash NUL", Kind.BINARY, new byte[] {'\'', '\\', 0, '"', '\\'}));
        values.add(new Value("binary UTF-8 emoji then FF", Kind.BINARY, concat("😀".getBytes(StandardCharsets.UTF_8), new byte[] {(byte) 0xFF})));
        byte[] random = new byte[200];
        new Random(16).nextBytes(random);
        values.add(new Value("binary 200 random bytes", Kind.BINARY, random));
        return List.copyOf(values);
    }

    /** The literals a value is written as: a string literal for text, {@code _binary'...'} and {@code X'...'} for bytes. */
    private static List<byte[]> literals(Value value) {
        byte[] quoted = concat(ascii("'"), escaped(value.bytes()), ascii("'"));
        if (value.kind() != Kind.BINARY) {
            return List.of(quoted);
        }
        return List.of(concat(ascii("_binary"), quoted), ascii("X'" + HexFormat.of().formatHex(value.bytes()) + "'"));
    }

    /** The bytes inside a quoted literal: quote, backslash and NUL escaped with a backslash, every other byte raw. */
    private static byte[] escaped(byte[] bytes) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte b : bytes) {
            if (b == '\'' || b == '\\') {
                out.write('\\');
                out.write(b);
            } else if (b == 0) {
                out.write('\\');
                out.write('0');
            } else {
                out.write(b);
            }
        }
        return out.toByteArray();
    }

    private static String printable(String text) {
        String shown = text.replace("\n", "\\n").replace("\0", "\\0");
        return shown.length() > 40 ? shown.substring(0, 40) + "..." : shown;
    }

    private static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }

    private static String hex(byte[] bytes) {
        return bytes == null ? "NULL" : HexFormat.of().withUpperCase().formatHex(bytes);
    }

    /** Statements as raw bytes over {@link RawClient}, reading text-protocol results as raw bytes. */
    private static final class Raw implements AutoCloseable {
        private final RawClient client;

        private Raw(RawClient client) {
            this.client = client;
        }

        /** Logs in; with {@code names}, runs SET NAMES first (session tracking carries it to Shardgate). */
        static Raw login(int port, String names) throws Exception {
            RawClient client = new RawClient(port, 30_000);
            RawClient.Reply reply = client.login(ProxyFixture.USER, ProxyFixture.PASSWORD);
            assertThat(reply.isErr()).as("login").isFalse();
            Raw raw = new Raw(client);
            if (names != null) {
                raw.update(ascii("SET NAMES " + names));
            }
            return raw;
        }

        void update(byte[] sql) throws IOException {
            RawClient.Reply reply = send(sql);
            assertThat(reply.payload()[0]).as("OK for %s", show(sql)).isEqualTo((byte) 0);
        }

        /** The first column of the first row, as the bytes the server sent (null for SQL NULL). */
        byte[] first(byte[] sql) throws IOException {
            RawClient.Reply head = send(sql);
            int[] at = {0};
            long columns = lenenc(head.payload(), at);
            assertThat(columns).as("columns of %s", show(sql)).isPositive();
            for (long c = 0; c < columns; c++) {
                read();
            }
            byte[] first = null;
            boolean seen = false;
            while (true) {
                byte[] row = read().payload();
                if ((row[0] & 0xFF) == 0xFE && row.length < 0xFFFFFF) {
                    assertThat(seen).as("a row for %s", show(sql)).isTrue();
                    return first;
                }
                if (!seen) {
                    seen = true;
                    if ((row[0] & 0xFF) != 0xFB) {
                        int[] p = {0};
                        int length = (int) lenenc(row, p);
                        first = java.util.Arrays.copyOfRange(row, p[0], p[0] + length);
                    }
                }
            }
        }

        private RawClient.Reply send(byte[] sql) throws IOException {
            client.write(0, concat(new byte[] {0x03}, sql));
            RawClient.Reply reply = read();
            if (reply.isErr()) {
                throw new AssertionError("ERR " + reply.errno() + " " + new String(reply.payload(), 9, reply.payload().length - 9,
                        StandardCharsets.UTF_8) + " for " + show(sql));
            }
            return reply;
        }

        private RawClient.Reply read() throws IOException {
            RawClient.Reply reply = client.read();
            if (reply.kind() != RawClient.Reply.Kind.PACKET) {
                throw new AssertionError("no answer: " + reply.kind());
            }
            return reply;
        }

        private static long lenenc(byte[] b, int[] at) {
            int first = b[at[0]] & 0xFF;
            int width = first < 0xFB ? 0 : first == 0xFC ? 2 : first == 0xFD ? 3 : 8;
            if (width == 0) {
                at[0]++;
                return first;
            }
            long value = 0;
            for (int i = 0; i < width; i++) {
                value |= (long) (b[at[0] + 1 + i] & 0xFF) << (8 * i);
            }
            at[0] += 1 + width;
            return value;
        }

        private static String show(byte[] sql) {
            String text = new String(sql, StandardCharsets.ISO_8859_1);
            return text.length() > 80 ? text.substring(0, 80) + "..." : text;
        }

        @Override
        public void close() throws IOException {
            client.close();
        }
    }
}
