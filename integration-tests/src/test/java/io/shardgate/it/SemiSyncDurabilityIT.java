package io.shardgate.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.shardgate.proxy.config.ConfigException;
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

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Predicate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@code durability: semi_sync} (issue 9, item 5) on a shard whose primary and replica run
 * MariaDB's built-in semi-synchronous replication, set as server options: the proxy starts and
 * shows the primary OK; when the replica stops acknowledging, the primary falls back to
 * asynchronous replication after {@code rpl_semi_sync_master_timeout} and {@code GET /shards}
 * shows it DEGRADED with the reason, and OK again once the replica is back; a primary with semi-sync
 * off or with the AFTER_COMMIT wait point keeps the proxy from starting, naming shard and variable.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SemiSyncDurabilityIT {
    private final HttpClient http = HttpClient.newHttpClient();
    private final ObjectMapper json = new ObjectMapper();
    private Topology topology;
    private Node primary;
    private Node replica;
    private ProxyFixture proxy;

    @BeforeAll
    void start() {
        // Every node gets both sides; only the primary has a semi-sync replica to wait for.
        topology = Topology.start(TopologySpec.builder()
                .shard("s0", Engine.INNODB, 1)
                .serverOption("rpl_semi_sync_master_enabled", "ON")
                .serverOption("rpl_semi_sync_slave_enabled", "ON")
                .serverOption("rpl_semi_sync_master_wait_point", "AFTER_SYNC")
                .serverOption("rpl_semi_sync_master_timeout", "500")
                .build());
        primary = topology.shard("s0").primary();
        replica = topology.shard("s0").replicas().get(0);
        primary.execute("CREATE DATABASE ss", "CREATE TABLE ss.t (id INT PRIMARY KEY)");
        proxy = ProxyFixture.start(topology, semiSync(), "");
    }

    @AfterAll
    void stop() {
        ProxyFixture.stop(proxy, topology);
    }

    @Test
    @Order(1)
    void aSemiSyncPrimaryIsOk() throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (!"1".equals(status("Rpl_semi_sync_master_clients")) && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertThat(status("Rpl_semi_sync_master_clients")).as("semi-sync replicas connected").isEqualTo("1");
        insert(1);
        assertThat(status("Rpl_semi_sync_master_status")).isEqualTo("ON");
        JsonNode s0 = awaitPrimary(backend -> backend.path("health").asText().equals("OK"), Duration.ofSeconds(10));
        assertThat(s0.path("health").asText()).as(s0.toString()).isEqualTo("OK");
        assertThat(s0.path("reasons")).isEmpty();
    }

    @Test
    @Order(2)
    void thePrimaryIsDegradedWhileItHasFallenBackToAsynchronous() throws Exception {
        replica.execute("STOP SLAVE IO_THREAD");
        long start = System.nanoTime();
        insert(2); // waits rpl_semi_sync_master_timeout for an acknowledgement, then commits asynchronously
        long waitedMs = (System.nanoTime() - start) / 1_000_000;
        assertThat(waitedMs).as("the commit waited for the semi-sync timeout").isGreaterThanOrEqualTo(400);
        assertThat(status("Rpl_semi_sync_master_status")).isEqualTo("OFF");
        JsonNode degraded = awaitPrimary(backend -> backend.path("health").asText().equals("DEGRADED"), Duration.ofSeconds(10));
        assertThat(degraded.path("health").asText()).as(degraded.toString()).isEqualTo("DEGRADED");
        assertThat(degraded.path("reasons").toString()).contains("fallen back to asynchronous").contains("Rpl_semi_sync_master_status");

        replica.execute("START SLAVE IO_THREAD");
        // The primary switches back once the replica has caught up and acknowledges a commit.
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        int id = 3;
        while (!"ON".equals(status("Rpl_semi_sync_master_status")) && System.nanoTime() < deadline) {
            insert(id++);
        }
        assertThat(status("Rpl_semi_sync_master_status")).isEqualTo("ON");
        JsonNode ok = awaitPrimary(backend -> backend.path("health").asText().equals("OK"), Duration.ofSeconds(10));
        assertThat(ok.path("health").asText()).as(ok.toString()).isEqualTo("OK");
    }

    @Test
    @Order(3)
    void aPrimaryWithoutAfterSyncKeepsTheProxyFromStarting() {
        primary.execute("SET GLOBAL rpl_semi_sync_master_wait_point = AFTER_COMMIT");
        try {
            assertThatThrownBy(() -> ProxyFixture.start(topology, semiSync(), "").close())
                    .isInstanceOf(ConfigException.class)
                    .hasMessageStartingWith("shards.s0.durability: semi_sync needs")
                    .hasMessageContaining("rpl_semi_sync_master_wait_point is AFTER_COMMIT (expected: AFTER_SYNC)");
        } finally {
            primary.execute("SET GLOBAL rpl_semi_sync_master_wait_point = AFTER_SYNC");
        }
        primary.execute("SET GLOBAL rpl_semi_sync_master_enabled = OFF");
        try {
            assertThatThrownBy(() -> ProxyFixture.start(topology, semiSync(), "").close())
                    .isInstanceOf(ConfigException.class)
                    .hasMessageContaining("rpl_semi_sync_master_enabled is OFF (expected: ON)");
            // Without durability: semi_sync the same primary is fine.
            ProxyFixture.start(topology, "").close();
        } finally {
            primary.execute("SET GLOBAL rpl_semi_sync_master_enabled = ON");
        }
    }

    private static Map<String, Map<String, String>> semiSync() {
        Map<String, Map<String, String>> shards = new LinkedHashMap<>();
        shards.put("s0", Map.of("durability", "semi_sync"));
        return shards;
    }

    private void insert(int id) throws Exception {
        try (Connection c = proxy.mariadb("ss", ""); Statement s = c.createStatement()) {
            assertThat(s.executeUpdate("INSERT INTO t VALUES (" + id + ")")).isEqualTo(1);
        }
    }

    private String status(String name) {
        return primary.queryString("SELECT VARIABLE_VALUE FROM information_schema.GLOBAL_STATUS WHERE VARIABLE_NAME = '"
                + name.toUpperCase(java.util.Locale.ROOT) + "'");
    }

    /** The s0 primary's entry of {@code GET /shards} once {@code condition} holds, or the last one seen. */
    private JsonNode awaitPrimary(Predicate<JsonNode> condition, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        JsonNode backend = primaryEntry();
        while (!condition.test(backend) && System.nanoTime() < deadline) {
            Thread.sleep(100); // the health probe runs every second
            backend = primaryEntry();
        }
        return backend;
    }

    private JsonNode primaryEntry() throws Exception {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + proxy.adminPort() + "/shards"))
                .header("Authorization", "Bearer " + ProxyFixture.ADMIN_TOKEN).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        for (JsonNode backend : json.readTree(response.body())) {
            if (backend.path("role").asText().equals("primary")) {
                return backend;
            }
        }
        throw new AssertionError("no primary in " + response.body());
    }
}
