package io.shardgate.it;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Packets larger than 16 MiB and compressed connections, through real clients, 20 times in a row
 * each (issue 16: these hung). Every round writes a 50 MiB row and reads it back, sends a 20 MiB
 * statement, and then asks {@code SELECT 1} on the same connection: a relay that loses a packet,
 * reorders a continuation or leaves a backend connection unread answers none of them.
 *
 * <p>Values are compared by SHA-256 (computed here, by the server, or by the Python clients'
 * {@code --digest}), not by holding copies. The data is alphanumeric text, so the statements need
 * no escaping, and every KiB starts with its own counter, so a lost, repeated or reordered piece
 * changes the digest.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LargePacketIT {
    private static final int ROUNDS = 20;
    private static final int ROW_BYTES = 50 * 1024 * 1024;
    private static final int STATEMENT_BYTES = 20 * 1024 * 1024;
    /** JDBC options every connection here uses: generous timeouts, a failure is a hang. */
    private static final String TIMEOUTS = "connectTimeout=20000&socketTimeout=120000";

    private ProxyFixture proxy;
    private Path dir;
    private Path selectOne;
    private Path bigStatement;
    private String row;
    private String rowDigest;
    private String statement;
    private String statementAnswer;

    @BeforeAll
    void start() throws IOException {
        dir = Files.createTempDirectory("large-packets");
        // 50 MiB rows: max_allowed_packet above them on the server and in the proxy; a redo log
        // and binlog row image that keep rewriting them cheap; the server's temporary files
        // (a derived table holding a 1 MB string goes to disk) in a directory of this test's own.
        proxy = ProxyFixture.withOwnShard(Map.of("max_allowed_packet", "256M", "innodb_log_file_size", "256M",
                        "innodb_buffer_pool_size", "256M", "innodb_flush_log_at_trx_commit", "0",
                        "binlog_row_image", "MINIMAL", "tmpdir", Files.createDirectory(dir.resolve("server-tmp")).toString()),
                "limits: { max_allowed_packet: 134217728 }\n",
                "CREATE DATABASE large", "CREATE TABLE large.big (id INT PRIMARY KEY, b LONGBLOB)");
        row = text(ROW_BYTES, 1);
        rowDigest = ROW_BYTES + ":" + sha256(row.getBytes(StandardCharsets.US_ASCII));
        String literal = text(STATEMENT_BYTES, 2);
        // No derived table: the server would materialise 20 MB in a temporary file for it.
        statement = "SELECT SHA2('" + literal + "', 256)";
        statementAnswer = sha256(literal.getBytes(StandardCharsets.US_ASCII));
        selectOne = write("select1.sql", "SELECT 1");
        bigStatement = write("statement.sql", statement);
    }

    @AfterAll
    void stop() throws IOException {
        if (proxy != null) {
            proxy.close();
        }
        if (dir != null) {
            try (var files = Files.walk(dir)) {
                for (Path file : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
                    Files.delete(file);
                }
            }
        }
    }

    /**
     * The six client setups, three at a time (a round keeps about one core busy, and this also
     * runs relays on both event loops at once); each writes and reads its own row.
     */
    @Test
    void fiftyMegabyteRowsAndTwentyMegabyteStatementsTwentyTimesThroughEveryClient() throws Exception {
        Map<String, Callable<Void>> setups = new LinkedHashMap<>();
        setups.put("PyMySQL", () -> roundsThroughPython("pymysql_client.py", 1));
        setups.put("zstd_client.py (zstd)", () -> roundsThroughPython("zstd_client.py", 2));
        setups.put("MariaDB Connector/J", () -> roundsThroughJdbc(() -> proxy.mariadb("large", TIMEOUTS), 3));
        setups.put("MariaDB Connector/J, zlib",
                () -> roundsThroughJdbc(() -> proxy.mariadb("large", TIMEOUTS + "&useCompression=true"), 4));
        setups.put("MySQL Connector/J", () -> roundsThroughJdbc(() -> proxy.mysql("large", TIMEOUTS + "&sslMode=DISABLED"), 5));
        setups.put("MySQL Connector/J, zlib", () -> roundsThroughJdbc(
                () -> proxy.mysql("large", TIMEOUTS + "&sslMode=DISABLED&useCompression=true"), 6));
        ExecutorService pool = Executors.newFixedThreadPool(3);
        try {
            Map<String, Future<Void>> running = new LinkedHashMap<>();
            setups.forEach((name, setup) -> running.put(name, pool.submit(setup)));
            Map<String, Throwable> failed = new LinkedHashMap<>();
            for (Map.Entry<String, Future<Void>> entry : running.entrySet()) {
                try {
                    entry.getValue().get(15, TimeUnit.MINUTES);
                } catch (ExecutionException e) {
                    failed.put(entry.getKey(), e.getCause());
                }
            }
            if (!failed.isEmpty()) {
                AssertionError error = new AssertionError("failed through " + failed.keySet());
                failed.values().forEach(error::addSuppressed);
                throw error;
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /** ROUNDS times on one connection of a Python client, row {@code id}: the same steps as {@link #roundsThroughJdbc}. */
    private Void roundsThroughPython(String script, int id) throws Exception {
        Path insert = write("insert-" + id + ".sql", "REPLACE INTO big (id, b) VALUES (" + id + ", '" + row + "')");
        Path select = write("select-" + id + ".sql", "SELECT b FROM big WHERE id = " + id);
        Cli.Result result = python(script, ROUNDS, "--digest", "--query-file", insert.toString(),
                "--query-file", selectOne.toString(), "--query-file", select.toString(),
                "--query-file", selectOne.toString(), "--query-file", bigStatement.toString(),
                "--query-file", selectOne.toString());
        assertThat(result.status()).as("%s: %s", script, result.stderr()).isZero();
        String round = String.join("\n", ONE, rowDigest, ONE, digest(statementAnswer), ONE) + "\n";
        List<String> lines = result.stdout().lines().toList();
        for (int i = 0; i < ROUNDS; i++) {
            assertThat(lines.size()).as("%s: lines printed by round %d", script, i).isGreaterThanOrEqualTo(5 * i + 5);
            assertThat(String.join("\n", lines.subList(5 * i, 5 * i + 5)) + "\n").as("%s, round %d", script, i)
                    .isEqualTo(round);
        }
        assertThat(lines).hasSize(5 * ROUNDS);
        return null;
    }

    /** The first shape that hung: a 1 MB value echoed over zlib (4 hangs in 15 before the fix). */
    @Test
    void oneMegabyteEchoOverZlib() throws Exception {
        String value = text(1024 * 1024, 3);
        String echo = "SELECT p, SHA2(p, 256) FROM (SELECT '" + value + "' AS p) x";
        String expected = value + "\t" + sha256(value.getBytes(StandardCharsets.US_ASCII)) + "\n";
        for (int i = 0; i < 15; i++) {
            Cli.Result cli = Cli.run(Cli.mariadb(proxy.port(), "--compress", "large"), echo + ";\n", 60);
            assertThat(cli.status()).as("mariadb --compress, run %d: %s", i, cli.stderr()).isZero();
            assertThat(cli.stdout()).as("mariadb --compress, run %d", i).isEqualTo(expected);
        }
        for (String url : List.of(proxy.mariadbUrl("large", TIMEOUTS + "&useCompression=true"),
                proxy.mysqlUrl("large", TIMEOUTS + "&sslMode=DISABLED&useCompression=true"))) {
            for (int i = 0; i < 15; i++) {
                try (Connection c = java.sql.DriverManager.getConnection(url, ProxyFixture.USER, ProxyFixture.PASSWORD);
                     Statement s = c.createStatement();
                     ResultSet rows = s.executeQuery(echo)) {
                    assertThat(rows.next()).isTrue();
                    assertThat(rows.getString(1)).as("%s, run %d", url, i).isEqualTo(value);
                    assertSelectOne(s);
                }
            }
        }
    }

    /** A 17 MB query, then an 18 MB result, over zstd: the next SELECT went unanswered. */
    @Test
    void zstdSeventeenMegabyteQueryThenEighteenMegabyteResult() throws Exception {
        String head = text(17 * 1024 * 1024, 4);
        Path query = write("q17r18.sql", "SELECT CONCAT('" + head + "', REPEAT('r', 1048576)) AS v");
        String resultDigest = sha256((head + "r".repeat(1048576)).getBytes(StandardCharsets.US_ASCII));
        Cli.Result result = python("zstd_client.py", 3, "--digest", "--query-file", query.toString(),
                "--query-file", selectOne.toString());
        assertThat(result.status()).as(result.stderr()).isZero();
        String round = (head.length() + 1048576) + ":" + resultDigest + "\n" + ONE + "\n";
        assertThat(result.stdout()).isEqualTo(round.repeat(3));
    }

    /** A 5,000-row multi-row INSERT, then the rows streamed 100 at a time by a slow reader, then SELECT 1. */
    @Test
    void mariadbConnectorJStreamsAfterAMultiRowInsert() throws Exception {
        String filler = "streamed-".repeat(100);
        for (int round = 0; round < 5; round++) {
            try (Connection c = proxy.mariadb("large", TIMEOUTS); Statement s = c.createStatement()) {
                s.execute("CREATE TABLE IF NOT EXISTS rows5k (id INT PRIMARY KEY, v VARCHAR(2000))");
                s.execute("DELETE FROM rows5k");
                StringBuilder insert = new StringBuilder("INSERT INTO rows5k VALUES ");
                for (int i = 0; i < 5000; i++) {
                    insert.append(i == 0 ? "" : ",").append('(').append(i).append(",'").append(filler).append(i).append("')");
                }
                assertThat(s.executeUpdate(insert.toString())).isEqualTo(5000);
                try (Statement streaming = c.createStatement()) {
                    streaming.setFetchSize(100);
                    int count = 0;
                    try (ResultSet rows = streaming.executeQuery("SELECT id, v FROM rows5k ORDER BY id")) {
                        while (rows.next()) {
                            assertThat(rows.getString(2)).isEqualTo(filler + count);
                            count++;
                            if (count % 100 == 0) {
                                Thread.sleep(5); // a slow reader: the proxy must pause and resume the backend
                            }
                        }
                    }
                    assertThat(count).isEqualTo(5000);
                }
                assertSelectOne(s);
            }
        }
    }

    /** A 16 MB string SELECT through PyMySQL; then a new client logs in and is answered at once. */
    @Test
    void pyMySqlSixteenMegabyteSelectThenANewClient() throws Exception {
        String value = text(16 * 1024 * 1024, 5);
        Path query = write("select16.sql", "SELECT '" + value + "'");
        Cli.Result result = python("pymysql_client.py", 3, "--digest", "--query-file", query.toString(),
                "--query-file", selectOne.toString());
        assertThat(result.status()).as(result.stderr()).isZero();
        String round = value.length() + ":" + sha256(value.getBytes(StandardCharsets.US_ASCII)) + "\n" + ONE + "\n";
        assertThat(result.stdout()).isEqualTo(round.repeat(3));

        long started = System.nanoTime();
        Cli.Result next = Cli.run(List.of("/usr/bin/python3", script("pymysql_client.py").toString(),
                "--port", Integer.toString(proxy.port()), "--user", ProxyFixture.USER, "--password", ProxyFixture.PASSWORD,
                "--database", "large", "--timeout", "10", "--query-file", selectOne.toString()), null, 30);
        assertThat(next.status()).as(next.stderr()).isZero();
        assertThat(next.stdout()).isEqualTo("1\n");
        assertThat((System.nanoTime() - started) / 1_000_000).as("ms for a new client to log in and SELECT 1")
                .isLessThan(10_000);
    }

    private interface Opener {
        Connection open() throws SQLException;
    }

    /** ROUNDS times on one connection, row {@code id}: write the row, read it back, the big statement, SELECT 1 after each. */
    private Void roundsThroughJdbc(Opener opener, int id) throws Exception {
        try (Connection c = opener.open(); Statement s = c.createStatement()) {
            String name = c.getMetaData().getDriverName() + " " + c.getMetaData().getURL();
            for (int i = 0; i < ROUNDS; i++) {
                assertThat(s.executeUpdate("REPLACE INTO big (id, b) VALUES (" + id + ", '" + row + "')"))
                        .as("%s, round %d", name, i).isPositive();
                assertSelectOne(s);
                try (ResultSet rows = s.executeQuery("SELECT b FROM big WHERE id = " + id)) {
                    assertThat(rows.next()).isTrue();
                    byte[] back = rows.getBytes(1);
                    assertThat(back.length + ":" + sha256(back)).as("%s, round %d", name, i).isEqualTo(rowDigest);
                }
                assertSelectOne(s);
                try (ResultSet rows = s.executeQuery(statement)) {
                    assertThat(rows.next()).isTrue();
                    assertThat(rows.getString(1)).as("%s, round %d", name, i).isEqualTo(statementAnswer);
                }
                assertSelectOne(s);
            }
        }
        return null;
    }

    private static void assertSelectOne(Statement s) throws SQLException {
        try (ResultSet one = s.executeQuery("SELECT 1")) {
            assertThat(one.next()).isTrue();
            assertThat(one.getInt(1)).isEqualTo(1);
        }
    }

    /** What the Python clients print for SELECT 1 with --digest. */
    private static final String ONE = "1:" + sha256(new byte[] {'1'});

    private Cli.Result python(String script, int repeat, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("/usr/bin/python3", script(script).toString(),
                "--port", Integer.toString(proxy.port()), "--user", ProxyFixture.USER, "--password", ProxyFixture.PASSWORD,
                "--database", "large", "--timeout", "60", "--repeat", Integer.toString(repeat)));
        command.addAll(List.of(args));
        return Cli.run(command, null, 600);
    }

    private Path script(String name) throws URISyntaxException {
        return Path.of(getClass().getResource("/" + name).toURI());
    }

    private Path write(String name, String sql) throws IOException {
        return Files.writeString(dir.resolve(name), sql, StandardCharsets.US_ASCII);
    }

    private static String digest(String value) {
        byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
        return bytes.length + ":" + sha256(bytes);
    }

    /**
     * {@code length} alphanumeric characters: a random block of 1,008, each KiB led by its own
     * 16-digit counter. Repetitive enough for zlib to keep up, and no two KiB alike.
     */
    private static String text(int length, long seed) {
        String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
        Random random = new Random(seed);
        char[] block = new char[1008];
        for (int i = 0; i < block.length; i++) {
            block[i] = alphabet.charAt(random.nextInt(alphabet.length()));
        }
        StringBuilder out = new StringBuilder(length);
        for (long kib = 0; out.length() < length; kib++) {
            out.append(String.format("%016x", kib)).append(block);
        }
        out.setLength(length);
        return out.toString();
    }

    private static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
