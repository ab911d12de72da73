package io.shardgate.it;

import com.fasterxml.jackson.databind.JsonNode;
import io.shardgate.replication.topology.Node;
import io.shardgate.replication.topology.Topology;
import io.shardgate.replication.topology.TopologySpec;
import io.shardgate.storage.Engine;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A table move through the jobs API: an unsharded InnoDB table moves to a MyRocks shard while a client writes it
 * through the proxy. The job copies, streams, diffs clean, reports the table's size on both engines, and its cutover
 * gives the table its new shard: afterwards the client's writes go there, and every acknowledged write is in it.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MoveIT {
    private static final int ROWS = 20_000;
    private Topology topology;
    private JarProxy proxy;

    @BeforeAll
    void start() throws Exception {
        topology = Topology.start(TopologySpec.builder().shard("s0", Engine.INNODB, 0).shard("s1", Engine.ROCKSDB, 0).build());
        Map<String, Map<String, String>> keys = new LinkedHashMap<>();
        keys.put("s0", Map.of("key_range", "-80"));
        keys.put("s1", Map.of("key_range", "80-"));
        proxy = JarProxy.start(ProxyFixture.config(topology, keys, """
                schemas:
                  - name: shop
                    tables:
                      customers: { shard_key: id, vindex: hash }
                      settings: { type: unsharded, shard: s0 }
                """));
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE DATABASE shop");
            statement.execute("CREATE TABLE shop.settings (id BIGINT PRIMARY KEY, note VARCHAR(40) NOT NULL, n INT NOT NULL)"
                    + " ENGINE=InnoDB");
            for (int batch = 0; batch < ROWS / 1000; batch++) {
                StringBuilder insert = new StringBuilder("INSERT INTO shop.settings VALUES ");
                for (int i = 0; i < 1000; i++) {
                    insert.append(i == 0 ? "" : ",").append("(").append(batch * 1000L + i + 1).append(",'loaded',0)");
                }
                statement.executeUpdate(insert.toString());
            }
        }
    }

    @AfterAll
    void stop() {
        JarProxy.stop(proxy, topology);
    }

    private Connection connect() throws SQLException {
        return proxy.connect();
    }

    @Test
    void anInnoDbTableMovesToAMyRocksShardUnderWrites() throws Exception {
        Node s0 = topology.shard("s0").primary();
        Node s1 = topology.shard("s1").primary();
        Jobs jobs = new Jobs(new AdminApi(proxy.adminPort()));
        ModelClient client = new ModelClient(this::connect, "shop.settings", ROWS, 1_000_000);
        String id;
        try (client) {
            id = jobs.move("s0", "s1", "rocksdb", "shop.settings");
            JsonNode ready = jobs.await(id, "ready", Duration.ofMinutes(3));
            System.out.printf("[move] ready: %s%n", ready.path("checkpoints").path("sizes"));
            assertThat(ready.path("diff").path("mismatches").asLong()).isZero();
            JsonNode sizes = ready.path("checkpoints").path("sizes").path("shop.settings");
            assertThat(sizes.path("source_engine").asText()).isEqualTo("InnoDB");
            assertThat(sizes.path("target_engine").asText()).isEqualTo("ROCKSDB");
            assertThat(sizes.path("source_bytes").asLong()).isPositive();
            assertThat(sizes.path("target_bytes").asLong()).isPositive();
            assertThat(jobs.act(id, "cutover")).isEqualTo(200);
            jobs.await(id, "switched", Duration.ofMinutes(1));
            long before = client.writes.get();
            Await.until("the client writes on after the cutover", Duration.ofSeconds(20), () -> client.writes.get() > before + 200);
            assertThat(jobs.act(id, "complete")).isEqualTo(200);
            jobs.await(id, "done", Duration.ofMinutes(1));
        }
        JsonNode done = jobs.job(id);
        System.out.printf("[move] done: cutover %s%n", done.path("checkpoints").path("cutover"));
        assertThat(client.errors).as("no write failed").isEmpty();
        assertThat(ModelClient.rowsOn(s1, "shop.settings")).as("every acknowledged write, on the new shard").isEqualTo(client.model);
        try (Connection target = s1.connect(); Statement statement = target.createStatement();
             var engine = statement.executeQuery("SELECT ENGINE FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'shop'"
                     + " AND TABLE_NAME = 'settings'")) {
            assertThat(engine.next()).isTrue();
            assertThat(engine.getString(1)).isEqualTo("ROCKSDB");
        }
    }
}
