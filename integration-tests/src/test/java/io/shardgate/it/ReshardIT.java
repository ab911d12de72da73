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
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

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
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE DATABASE shop");
            statement.execute("CREATE TABLE shop.customers (id BIGINT PRIMARY KEY, note VARCHAR(40) NOT NULL, n INT NOT NULL)");
            for (int batch = 0; batch < ROWS / 1000; batch++) {
                StringBuilder insert = new StringBuilder("INSERT INTO shop.customers VALUES ");
                for (int i = 0; i < 1000; i++) {
                    long id = batch * 1000L + i + 1;
                    insert.append(i == 0 ? "" : ",").append("(").append(id).append(",'loaded',0)");
                }
                statement.executeUpdate(insert.toString());
            }
        }
    }

    @AfterAll
    void stop() {
        try {
            if (proxy != null) {
                proxy.close();
            }
        } finally {
            if (topology != null) {
                topology.close();
            }
        }
    }

    private Connection connect() throws SQLException {
        return DriverManager.getConnection("jdbc:mariadb://127.0.0.1:" + proxy.port() + "/?connectTimeout=5000",
                ProxyFixture.USER, ProxyFixture.PASSWORD);
    }

    private static long keyspaceId(long id) {
        return XxHash64.hash(Long.toString(id).getBytes(StandardCharsets.US_ASCII));
    }

    /** A client that inserts, updates and deletes through the proxy; {@code model} is what its acknowledged writes left. */
    private final class Client implements AutoCloseable {
        final Map<Long, Integer> model = new ConcurrentHashMap<>(); // id -> n; absent: deleted or never written
        final ConcurrentLinkedQueue<String> errors = new ConcurrentLinkedQueue<>();
        final AtomicLong writes = new AtomicLong();
        private final AtomicBoolean stop = new AtomicBoolean();
        private final Thread thread = new Thread(this::loop, "reshard-client");

        Client() {
            for (long id = 1; id <= ROWS; id++) {
                model.put(id, 0);
            }
            thread.start();
        }

        private void loop() {
            try (Connection connection = connect(); Statement statement = connection.createStatement()) {
                long next = 1_000_000;
                while (!stop.get()) {
                    ThreadLocalRandom random = ThreadLocalRandom.current();
                    long id = random.nextInt(3) == 0 ? next++ : 1 + random.nextInt(ROWS);
                    int n = random.nextInt(1_000_000);
                    try {
                        if (random.nextInt(10) == 0) {
                            statement.executeUpdate("DELETE FROM shop.customers WHERE id = " + id);
                            model.remove(id);
                        } else {
                            statement.executeUpdate("INSERT INTO shop.customers VALUES (" + id + ", 'client', " + n
                                    + ") ON DUPLICATE KEY UPDATE n = VALUES(n)");
                            model.put(id, n);
                        }
                        writes.incrementAndGet();
                    } catch (SQLException e) {
                        errors.add(id + ": " + e.getErrorCode() + " " + e.getMessage());
                    }
                    Thread.sleep(2);
                }
            } catch (SQLException | InterruptedException e) {
                errors.add("client: " + e);
            }
        }

        @Override
        public void close() throws InterruptedException {
            stop.set(true);
            thread.join(30_000);
        }
    }

    private JsonNode job(String id) {
        AdminApi.Response response = admin.get("/api/v1/jobs/" + id);
        assertThat(response.status()).as(response.body()).isEqualTo(200);
        JsonNode body = response.json();
        return body.has("job") ? body.get("job") : body;
    }

    private String phase(String id) {
        return job(id).path("phase").asText();
    }

    private static Map<Long, Integer> rows(Node node) throws SQLException {
        Map<Long, Integer> rows = new HashMap<>();
        try (Connection connection = node.connect(); Statement statement = connection.createStatement();
             ResultSet result = statement.executeQuery("SELECT id, n FROM shop.customers")) {
            while (result.next()) {
                rows.put(result.getLong(1), result.getInt(2));
            }
        }
        return rows;
    }

    @Test
    void s1SplitsOverAnInnoDbAndAMyRocksShardUnderWrites() throws Exception {
        Node s2 = topology.shard("s2").primary();
        Node s3 = topology.shard("s3").primary();
        String spec = "{\"kind\": \"reshard\", \"spec\": {\"source\": \"s1\", \"targets\": ["
                + "{\"name\": \"s2\", \"primary\": \"" + s2.address() + "\", \"engine\": \"innodb\", \"key_range\": \"80-c0\"},"
                + "{\"name\": \"s3\", \"primary\": \"" + s3.address() + "\", \"engine\": \"rocksdb\", \"key_range\": \"c0-\"}]}}";
        Client client = new Client();
        String id;
        try (client) {
            AdminApi.Response created = admin.send("POST", "/api/v1/jobs", spec, -1);
            assertThat(created.status()).as(created.body()).isEqualTo(201);
            JsonNode createdJob = created.json().has("job") ? created.json().get("job") : created.json();
            id = createdJob.get("id").asText();
            Await.until("the job is ready for its cutover", Duration.ofMinutes(3), () -> {
                String phase = phase(id);
                assertThat(phase).as(job(id).toString()).isNotIn("failed", "cancelled");
                return phase.equals("ready");
            });
            JsonNode ready = job(id);
            System.out.printf("[reshard] ready: %s%n", ready);
            assertThat(ready.path("diff").path("mismatches").asLong()).isZero();
            assertThat(ready.path("diff").path("rows_compared").asLong()).isPositive();
            assertThat(ready.path("tables").path("shop.customers").path("rows_copied").asLong()).isPositive();
            AdminApi.Response cutover = admin.send("POST", "/api/v1/jobs/" + id + "/cutover", null, -1);
            assertThat(cutover.status()).as(cutover.body()).isEqualTo(200);
            Await.until("the job is done", Duration.ofMinutes(1), () -> {
                String phase = phase(id);
                assertThat(phase).as(job(id).toString()).isNotIn("failed", "cancelled");
                return phase.equals("done");
            });
            long before = client.writes.get();
            Await.until("the client writes on after the cutover", Duration.ofSeconds(20), () -> client.writes.get() > before + 200);
        }
        JsonNode done = job(id);
        System.out.printf("[reshard] done: %s%n", done);
        System.out.printf("[reshard] %d writes by the client; cutover %s%n", client.writes.get(), done.path("checkpoints").path("cutover"));
        assertThat(client.errors).as("no write failed").isEmpty();
        Map<Long, Integer> onS0 = rows(topology.shard("s0").primary());
        Map<Long, Integer> onS2 = rows(s2);
        Map<Long, Integer> onS3 = rows(s3);
        assertThat(onS2.keySet()).as("s2 holds only its keys").allMatch(key -> KeyRange.parse("80-c0").contains(keyspaceId(key)));
        assertThat(onS3.keySet()).as("s3 holds only its keys").allMatch(key -> KeyRange.parse("c0-").contains(keyspaceId(key)));
        Map<Long, Integer> all = new HashMap<>(onS0);
        onS2.forEach((key, n) -> assertThat(all.put(key, n)).as("row %d once", key).isNull());
        onS3.forEach((key, n) -> assertThat(all.put(key, n)).as("row %d once", key).isNull());
        assertThat(all).as("every acknowledged write, exactly, on its owner").isEqualTo(client.model);
    }
}
