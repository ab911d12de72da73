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
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * COM_STMT_FETCH cursors over statements that run on every shard (an InnoDB and a MyRocks shard): MySQL
 * Connector/J with useCursorFetch reads the rows one unsharded MariaDB table returns (and a plain execute through Shardgate), the protocol is MariaDB's (CURSOR_EXISTS
 * after the column definitions, at most N rows per fetch, LAST_ROW_SENT at the end, then 1421), and a cursor
 * closed, reset or abandoned mid-way gives its backend connections back.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ShardedCursorIT {
    private static final String CONFIG = """
            schemas:
              - name: cur
                tables:
                  items: { shard_key: id, vindex: hash }
            """;
    private static final int ROWS = 100;
    private static final int CURSOR_EXISTS = 0x40;
    private static final int LAST_ROW_SENT = 0x80;
    private static final Pattern IN_USE = Pattern.compile("(?m)^shardgate_backend_connections\\{[^}]*state=\"in_use\"[^}]*} (\\S+)");

    private Topology topology;
    private ProxyFixture proxy;

    @BeforeAll
    void start() throws Exception {
        topology = Topology.start(TopologySpec.builder().shard("s0", Engine.INNODB, 0).shard("s1", Engine.ROCKSDB, 0).build());
        for (String shard : List.of("s0", "s1")) {
            topology.shard(shard).primary().execute("CREATE DATABASE cur", "CREATE TABLE cur.items (id INT PRIMARY KEY, v VARCHAR(20), n INT)");
        }
        // The oracle: the same rows in one unsharded table, outside Shardgate's configuration.
        topology.shard("s0").primary().execute("CREATE DATABASE oracle", "CREATE TABLE oracle.items (id INT PRIMARY KEY, v VARCHAR(20), n INT)",
                "INSERT INTO oracle.items SELECT seq, CONCAT('row ', seq), seq * 37 % 11 FROM oracle.seq_1_to_" + ROWS);
        proxy = ProxyFixture.start(topology, ProxyFixture.HALVES, CONFIG);
        try (Connection c = proxy.mariadb("cur", ""); PreparedStatement insert = c.prepareStatement("INSERT INTO items (id, v, n) VALUES (?, ?, ?)")) {
            for (int id = 1; id <= ROWS; id++) {
                insert.setInt(1, id);
                insert.setString(2, "row " + id);
                insert.setInt(3, id * 37 % 11);
                insert.executeUpdate();
            }
        }
    }

    @AfterAll
    void stop() {
        ProxyFixture.stop(proxy, topology);
    }

    /** Every row of {@code sql} (one parameter), each as its columns joined by '|'. */
    private static List<String> rows(Connection c, String sql, int parameter) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setInt(1, parameter);
            try (ResultSet r = ps.executeQuery()) {
                int columns = r.getMetaData().getColumnCount();
                while (r.next()) {
                    StringBuilder row = new StringBuilder();
                    for (int i = 1; i <= columns; i++) {
                        row.append(i > 1 ? "|" : "").append(r.getString(i));
                    }
                    rows.add(row.toString());
                }
            }
        }
        return rows;
    }

    @Test
    void connectorJCursorFetchReadsWhatAPlainExecuteReads() throws Exception {
        String merged = "SELECT id, v, n FROM items WHERE id <= ? ORDER BY n, id DESC";
        String scatter = "SELECT id, v FROM items WHERE id <= ?";
        try (Connection cursor = proxy.mysql("cur", "sslMode=DISABLED&useServerPrepStmts=true&useCursorFetch=true&defaultFetchSize=7");
             Connection plain = proxy.mysql("cur", "sslMode=DISABLED&useServerPrepStmts=true");
             Connection oracle = topology.shard("s0").primary().connect()) {
            List<String> expected = rows(oracle, merged.replace("FROM items", "FROM oracle.items"), ROWS);
            assertThat(expected).hasSize(ROWS);
            assertThat(rows(cursor, merged, ROWS)).as("a merge (ORDER BY) through a cursor").containsExactlyElementsOf(expected);
            assertThat(rows(plain, merged, ROWS)).containsExactlyElementsOf(expected);
            List<String> viaCursor = rows(cursor, scatter, ROWS);
            assertThat(viaCursor).hasSize(ROWS).containsExactlyInAnyOrderElementsOf(rows(oracle, scatter.replace("FROM items", "FROM oracle.items"), ROWS))
                    .containsExactlyInAnyOrderElementsOf(rows(plain, scatter, ROWS));
            assertThat(rows(cursor, scatter, 0)).as("an empty result").isEmpty();

            // Mid-way the cursor holds both shards' connections; read to its end it gives them back.
            try (PreparedStatement ps = cursor.prepareStatement(merged)) {
                ps.setInt(1, ROWS);
                try (ResultSet r = ps.executeQuery()) {
                    assertThat(r.next()).isTrue();
                    assertThat(inUse()).as("the cursor's shard connections").isGreaterThanOrEqualTo(2);
                    assertThat(rows(plain, "SELECT COUNT(*) FROM items WHERE id <= ?", ROWS)).as("another session is unaffected")
                            .containsExactly(Integer.toString(ROWS));
                    int read = 1;
                    while (r.next()) {
                        read++;
                    }
                    assertThat(read).isEqualTo(ROWS);
                }
            }
            awaitInUse(0);
        }
    }

    @Test
    void insideATransactionTheCursorIsReadAtExecuteAndOtherStatementsRunWhileItIsOpen() throws Exception {
        try (Connection c = proxy.mysql("cur", "sslMode=DISABLED&useServerPrepStmts=true&useCursorFetch=true&defaultFetchSize=7")) {
            c.setAutoCommit(false);
            try (PreparedStatement ps = c.prepareStatement("SELECT id FROM items WHERE id <= ? ORDER BY id")) {
                ps.setInt(1, ROWS);
                try (ResultSet r = ps.executeQuery(); Statement other = c.createStatement()) {
                    assertThat(r.next()).isTrue();
                    // As on MariaDB, which materialises a cursor's rows at execute: the transaction's shards serve another
                    // statement while the cursor is open, and the cursor reads on afterwards.
                    try (ResultSet count = other.executeQuery("SELECT COUNT(*) FROM items")) {
                        assertThat(count.next()).isTrue();
                        assertThat(count.getInt(1)).as("another statement while the cursor is open").isEqualTo(ROWS);
                    }
                    int read = 1;
                    while (r.next()) {
                        assertThat(r.getInt(1)).isEqualTo(read + 1);
                        read++;
                    }
                    assertThat(read).isEqualTo(ROWS);
                }
            }
            c.commit();
        }
        awaitInUse(0);
    }

    @Test
    void theProtocolIsMariaDbsAndAClosedOrAbandonedCursorGivesItsConnectionsBack() throws Exception {
        try (RawClient client = new RawClient(proxy.port(), 10_000)) {
            assertThat(client.login(ProxyFixture.USER, ProxyFixture.PASSWORD).isErr()).isFalse();
            int statement = prepare(client, "SELECT id, v FROM cur.items ORDER BY id");

            assertThat(execute(client, statement) & CURSOR_EXISTS).as("the execute opened a cursor").isNotZero();
            List<Integer> batches = new ArrayList<>();
            int status;
            do {
                Fetched fetched = fetch(client, statement, 7);
                assertThat(fetched.rows()).isLessThanOrEqualTo(7);
                batches.add(fetched.rows());
                status = fetched.status();
                assertThat(status & (CURSOR_EXISTS | LAST_ROW_SENT)).as("each fetch says whether more rows follow").isNotZero();
            } while ((status & LAST_ROW_SENT) == 0);
            assertThat(batches.stream().mapToInt(Integer::intValue).sum()).isEqualTo(ROWS);
            assertThat(batches.subList(0, batches.size() - 1)).allMatch(n -> n == 7);
            RawClient.Reply after = fetchReply(client, statement, 7);
            assertThat(after.isErr()).as(after.toString()).isTrue();
            assertThat(after.errno()).isEqualTo(1421);
            awaitInUse(0);

            // COM_STMT_CLOSE mid-cursor gives the shard connections back.
            execute(client, statement);
            assertThat(fetch(client, statement, 7).rows()).isEqualTo(7);
            assertThat(inUse()).as("the cursor's shard connections").isGreaterThanOrEqualTo(2);
            client.write(0, new byte[] {0x19, (byte) statement, (byte) (statement >> 8), (byte) (statement >> 16), (byte) (statement >> 24)});
            awaitInUse(0);
            assertThat(client.queryFirst("SELECT COUNT(*) FROM cur.items")).as("the session goes on").isEqualTo(Integer.toString(ROWS));

            // COM_STMT_RESET too; a fetch after it has no cursor.
            statement = prepare(client, "SELECT id, v FROM cur.items");
            execute(client, statement);
            assertThat(fetch(client, statement, 3).rows()).isEqualTo(3);
            client.write(0, new byte[] {0x1A, (byte) statement, (byte) (statement >> 8), (byte) (statement >> 16), (byte) (statement >> 24)});
            RawClient.Reply reset = client.read();
            assertThat(reset.payload()[0]).as(reset.toString()).isEqualTo((byte) 0);
            awaitInUse(0);
            assertThat(fetchReply(client, statement, 7).errno()).isEqualTo(1421);

            // A client that leaves mid-cursor.
            execute(client, statement);
            assertThat(fetch(client, statement, 3).rows()).isEqualTo(3);
            assertThat(inUse()).as("the cursor's shard connections").isGreaterThanOrEqualTo(2);
        }
        awaitInUse(0);
    }

    private record Fetched(int rows, int status) {
    }

    /** COM_STMT_PREPARE (CLIENT_DEPRECATE_EOF: no EOF after the definitions); returns the statement id. */
    private static int prepare(RawClient client, String sql) throws Exception {
        byte[] text = sql.getBytes(StandardCharsets.UTF_8);
        byte[] payload = new byte[1 + text.length];
        payload[0] = 0x16;
        System.arraycopy(text, 0, payload, 1, text.length);
        client.write(0, payload);
        RawClient.Reply ok = client.read();
        assertThat(ok.isErr()).as(ok.toString()).isFalse();
        ByteBuffer b = ByteBuffer.wrap(ok.payload()).order(ByteOrder.LITTLE_ENDIAN);
        int id = b.getInt(1);
        int definitions = (b.getShort(5) & 0xFFFF) + (b.getShort(7) & 0xFFFF);
        for (int i = 0; i < definitions; i++) {
            client.read();
        }
        return id;
    }

    /** COM_STMT_EXECUTE with CURSOR_TYPE_READ_ONLY; returns the status of the packet after the column definitions. */
    private static int execute(RawClient client, int statement) throws Exception {
        client.write(0, ByteBuffer.allocate(10).order(ByteOrder.LITTLE_ENDIAN).put((byte) 0x17).putInt(statement).put((byte) 1)
                .putInt(1).array());
        RawClient.Reply count = client.read();
        assertThat(count.isErr()).as(count.toString()).isFalse();
        for (int i = 0; i < (count.payload()[0] & 0xFF); i++) {
            client.read();
        }
        RawClient.Reply end = client.read();
        assertThat(end.payload()[0] & 0xFF).as("an OK with the EOF header ends the definitions, as MariaDB sends it").isEqualTo(0xFE);
        assertThat(end.payload()).hasSize(7);
        return ByteBuffer.wrap(end.payload()).order(ByteOrder.LITTLE_ENDIAN).getShort(3) & 0xFFFF;
    }

    private static RawClient.Reply fetchReply(RawClient client, int statement, int rows) throws Exception {
        client.write(0, ByteBuffer.allocate(9).order(ByteOrder.LITTLE_ENDIAN).put((byte) 0x1C).putInt(statement).putInt(rows).array());
        return client.read();
    }

    private static Fetched fetch(RawClient client, int statement, int rows) throws Exception {
        RawClient.Reply reply = fetchReply(client, statement, rows);
        int read = 0;
        while (true) {
            assertThat(reply.isErr()).as(reply.toString()).isFalse();
            byte[] p = reply.payload();
            if ((p[0] & 0xFF) == 0xFE && p.length < 9) {
                return new Fetched(read, ByteBuffer.wrap(p).order(ByteOrder.LITTLE_ENDIAN).getShort(3) & 0xFFFF);
            }
            assertThat(p[0]).as("a binary row").isEqualTo((byte) 0);
            read++;
            reply = client.read();
        }
    }

    /** Backend connections in use, summed over every pool. */
    private int inUse() throws Exception {
        String metrics = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + proxy.adminPort() + "/metrics"))
                .header("Authorization", "Bearer " + ProxyFixture.ADMIN_TOKEN).build(), HttpResponse.BodyHandlers.ofString()).body();
        Matcher matcher = IN_USE.matcher(metrics);
        double sum = 0;
        while (matcher.find()) {
            sum += Double.parseDouble(matcher.group(1));
        }
        return (int) sum;
    }

    private void awaitInUse(int expected) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        int last = inUse();
        while (last != expected && System.nanoTime() < deadline) {
            Thread.sleep(20);
            last = inUse();
        }
        assertThat(last).as("backend connections in use").isEqualTo(expected);
    }
}
