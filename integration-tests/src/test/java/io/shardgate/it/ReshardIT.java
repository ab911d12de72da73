package io.shardgate.it;

import com.fasterxml.jackson.databind.JsonNode;
import io.shardgate.replication.topology.Node;
import io.shardgate.replication.topology.Topology;
import io.shardgate.replication.topology.TopologySpec;
import io.shardgate.router.shard.KeyRange;
import io.shardgate.router.vindex.XxHash64;
import io.shardgate.storage.Engine;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A reshard job end to end through the jobs API of a packaged proxy: s1's keys split over s2 (InnoDB) and s3 (MyRocks)
 * while a client inserts, updates and deletes through the proxy throughout. The job copies, streams, diffs clean and
 * waits ready; the operator's cutover moves the keys with the writes held. Afterwards every row the client's
 * acknowledged writes left is on the shard that owns its key, with its last value, exactly once; s2 and s3 hold no row
 * they do not own; no write failed.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ReshardIT {
    private static final int ROWS = 20_000;
    private Topology topology;
    private JarProxy proxy;
    private AdminApi admin;

    @BeforeAll
    void start() throws Exception {
        topology = Topology.start(TopologySpec.builder().shard("s0", Engine.INNODB, 0).shard("s1", Engine.INNODB, 0)
                .shard("s2", Engine.INNODB, 0).shard("s3", Engine.ROCKSDB, 0).build());
        Map<String, Map<String, String>> keys = new LinkedHashMap<>();
        keys.put("s0", Map.of("key_range", "-80"));
        keys.put("s1", Map.of("key_range", "80-"));
        proxy = JarProxy.start(ProxyFixture.config(topology, keys,
                "schemas:\n  - name: shop\n    tables:\n      customers: { shard_key: id, vindex: hash }\n"));
        admin = new AdminApi(proxy.adminPort());
        try (Connection connection = connect()) {
            load(connection, ROWS);
        }
    }

    @AfterAll
    void stop() {
        JarProxy.stop(proxy, topology);
    }

    private Connection connect() throws SQLException {
        return proxy.connect();
    }

    /** The first id from {@code from} on whose keyspace id {@code range} holds. */
    static long idIn(String range, long from) {
        io.shardgate.router.shard.KeyRange keys = io.shardgate.router.shard.KeyRange.parse(range);
        long id = from;
        while (!keys.contains(keyspaceId(id))) {
            id++;
        }
        return id;
    }

    static long keyspaceId(long id) {
        return XxHash64.hash(Long.toString(id).getBytes(StandardCharsets.US_ASCII));
    }

    /** Creates {@code shop.customers} through the proxy with {@code rows} rows (id 1..rows, n = 0). */
    static void load(Connection connection, int rows) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.execute("CREATE DATABASE shop");
            statement.execute("CREATE TABLE shop.customers (id BIGINT PRIMARY KEY, note VARCHAR(40) NOT NULL, n INT NOT NULL)");
            for (int batch = 0; batch < rows / 1000; batch++) {
                StringBuilder insert = new StringBuilder("INSERT INTO shop.customers VALUES ");
                for (int i = 0; i < 1000; i++) {
                    long id = batch * 1000L + i + 1;
                    insert.append(i == 0 ? "" : ",").append("(").append(id).append(",'loaded',0)");
                }
                statement.executeUpdate(insert.toString());
            }
        }
    }

    /** Every row is on the shard whose range holds it, once, and the rows are what the client's writes left. */
    static void assertOwned(Map<String, Node> owners, Map<Long, Integer> model) throws SQLException {
        Map<Long, Integer> all = new HashMap<>();
        for (Map.Entry<String, Node> owner : owners.entrySet()) {
            KeyRange range = KeyRange.parse(owner.getKey());
            Map<Long, Integer> rows = ModelClient.rowsOn(owner.getValue());
            assertThat(rows.keySet()).as("%s holds only %s", owner.getValue().address(), range)
                    .allMatch(key -> range.contains(keyspaceId(key)));
            rows.forEach((key, n) -> assertThat(all.put(key, n)).as("row %d once", key).isNull());
        }
        assertThat(all).as("every acknowledged write, exactly, on its owner").isEqualTo(model);
    }

    /** The admin page, in headless Chromium, shows the running job: its id, phase and table progress; a screenshot. */
    private void pageShows(String id) {
        HeadlessChromium chromium = HeadlessChromium.find();
        String url = "http://127.0.0.1:" + proxy.adminPort() + "/ui#token=" + ProxyFixture.ADMIN_TOKEN;
        String dom = chromium.dumpDom(url, Duration.ofSeconds(6));
        assertThat(dom).contains("data-job=\"" + id + "\"").contains("shop.customers").contains(">ready<");
        assertThat(dom).containsPattern("[0-9,]+ / [0-9,]+ rows");
        java.nio.file.Path png = JarProxy.HOME.resolve("integration-tests/target/admin-page-reshard.png");
        chromium.screenshot(url, Duration.ofSeconds(6), png, 1280, 900);
        System.out.printf("[reshard] the admin page with the job: %s (%d bytes)%n", png, png.toFile().length());
        assertThat(png.toFile().length()).isGreaterThan(10_000);
    }

    @Test
    void s1SplitsOverAnInnoDbAndAMyRocksShardUnderWrites() throws Exception {
        Node s2 = topology.shard("s2").primary();
        Node s3 = topology.shard("s3").primary();
        Jobs jobs = new Jobs(admin);
        // A third of its writes are two-row transactions, most of them across s0 and s1: they commit with XA, and the copy,
        // the diff's snapshots and the streams go on while XA transactions are prepared and not yet committed.
        ModelClient client = new ModelClient(this::connect, "shop.customers", ROWS, 1_000_000, true);
        String id;
        try (client) {
            id = jobs.reshard("s1", "s2=" + s2.address() + "@innodb:80-c0", "s3=" + s3.address() + "@rocksdb:c0-");
            JsonNode ready = jobs.await(id, "ready", Duration.ofMinutes(3));
            System.out.printf("[reshard] ready: %s%n", ready);
            assertThat(ready.path("diff").path("mismatches").asLong()).isZero();
            assertThat(ready.path("diff").path("rows_compared").asLong()).isPositive();
            assertThat(ready.path("tables").path("shop.customers").path("rows_copied").asLong()).isPositive();
            pageShows(id);
            assertThat(jobs.act(id, "cutover")).isEqualTo(200);
            jobs.await(id, "switched", Duration.ofMinutes(1));
            long before = client.writes.get();
            Await.until("the client writes on after the cutover", Duration.ofSeconds(20), () -> client.writes.get() > before + 200);
            client.pause();
            Map<String, Node> owners = new LinkedHashMap<>();
            owners.put("-80", topology.shard("s0").primary());
            owners.put("80-c0", s2);
            owners.put("c0-", s3);
            assertOwned(owners, client.model);
            client.resume();
            // Reverse: the reverse streams kept s1 current with what the targets took; the keys go back to it.
            long switched = client.writes.get();
            Await.until("the client writes on the targets", Duration.ofSeconds(20), () -> client.writes.get() > switched + 200);
            // A transaction that wrote to one target before the reverse's hold writes to the other once the hold is in
            // force: the hold's drain waits for this transaction, so its write must not wait for the hold.
            long onS2 = idIn("80-c0", 90_000_000L);
            long onS3 = idIn("c0-", 90_000_000L);
            try (Connection open = connect(); Statement statement = open.createStatement()) {
                open.setAutoCommit(false);
                statement.executeUpdate("INSERT INTO shop.customers VALUES (" + onS2 + ", 'span', 1)");
                assertThat(jobs.act(id, "reverse")).isEqualTo(200);
                Await.until("the reverse holds the targets' writes here", Duration.ofSeconds(30), () -> {
                    JsonNode topology = admin.get("/api/v1/topology").json();
                    return topology.path("document").path("write_holds").size() > 0
                            && topology.path("applied_version").asLong() == topology.path("version").asLong();
                });
                long asked = System.nanoTime();
                statement.executeUpdate("INSERT INTO shop.customers VALUES (" + onS3 + ", 'span', 1)");
                long tookMillis = (System.nanoTime() - asked) / 1_000_000;
                open.commit();
                System.out.printf("[reshard] a write to s3 in a transaction on s2, under the reverse's hold: %d ms%n", tookMillis);
                assertThat(tookMillis).as("it did not wait for the hold").isLessThan(1_000);
            }
            client.model.put(onS2, 1);
            client.model.put(onS3, 1);
            jobs.await(id, "reversed", Duration.ofMinutes(1));
            long reversed = client.writes.get();
            Await.until("the client writes on after the reverse", Duration.ofSeconds(20), () -> client.writes.get() > reversed + 200);
        }
        JsonNode done = jobs.job(id);
        System.out.printf("[reshard] reversed: %s%n", done);
        System.out.printf("[reshard] %d writes by the client; cutover %s; reverse %s%n", client.writes.get(),
                done.path("checkpoints").path("cutover"), done.path("checkpoints").path("reverse"));
        assertThat(client.errors).as("no write failed").isEmpty();
        assertThat(Long.parseLong(topology.shard("s1").primary().queryString("SELECT VARIABLE_VALUE FROM"
                + " information_schema.GLOBAL_STATUS WHERE VARIABLE_NAME = 'COM_XA_PREPARE'")))
                .as("the client's pairs committed with XA on the source").isPositive();
        assertThat(done.path("checkpoints").path("reverse").path("writes_held_ms").asLong()).isLessThan(5_000);
        Map<String, Node> owners = new LinkedHashMap<>();
        owners.put("-80", topology.shard("s0").primary());
        owners.put("80-", topology.shard("s1").primary());
        assertOwned(owners, client.model);
        assertThat(topology.shard("s1").primary().queryString("SELECT COUNT(*) FROM information_schema.TABLES"
                + " WHERE TABLE_SCHEMA = '_shardgate' AND TABLE_NAME LIKE 'apply\\_position\\_rev%'"))
                .as("the reverse streams' state is dropped").isEqualTo("0");
        // The targets own no keys again: they leave the topology; s1, which owns keys, does not.
        AdminApi.Response refused = admin.send("DELETE", "/api/v1/shards/s1", null, -1);
        assertThat(refused.status()).as(refused.body()).isEqualTo(400);
        assertThat(refused.json().path("error").asText()).contains("owns keys").contains("move its keys first (a reshard job)");
        admin.change("DELETE", "/api/v1/shards/s2", null);
        admin.change("DELETE", "/api/v1/shards/s3", null);
        assertThat(admin.get("/api/v1/topology").json().path("document").path("shards").findValuesAsText("name"))
                .containsExactly("s0", "s1");
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            try (ResultSet rows = statement.executeQuery("SHOW SHARDGATE BACKENDS")) {
                while (rows.next()) {
                    assertThat(rows.getString("shard")).isIn("s0", "s1");
                }
            }
            try (ResultSet rows = statement.executeQuery("SELECT COUNT(*) FROM shop.customers")) {
                assertThat(rows.next()).isTrue();
                assertThat(rows.getLong(1)).as("every row, read through the proxy").isEqualTo(client.model.size());
            }
            assertThat(statement.executeUpdate("INSERT INTO shop.customers VALUES (99000001, 'after removal', 1)")).isEqualTo(1);
        }
    }
}
