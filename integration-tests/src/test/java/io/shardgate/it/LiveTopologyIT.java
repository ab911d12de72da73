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

import java.nio.file.Files;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One proxy on the file store changes its topology live through the admin API: a replica added serves
 * reads, a draining one lets a running statement finish and gets no read after, a removed one none
 * at all; two writes racing on a version get one 200 and one 409; the config file keeps the changes.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class LiveTopologyIT {
    private Topology topology;
    private JarProxy proxy;
    private AdminApi admin;
    private Node primary;
    private Node r1;
    private Node r2;

    @BeforeAll
    void start() {
        topology = Topology.start(TopologySpec.builder().shard("s0", Engine.INNODB, 2).build());
        primary = topology.shard("s0").primary();
        r1 = topology.shard("s0").replica(0);
        r2 = topology.shard("s0").replica(1);
        String yaml = ProxyFixture.config(topology, Map.of("s0", Map.of()),
                "routing: { max_replica_lag_ms: 10000 }\ntopology: { drain_timeout_ms: 20000 }\n")
                .replace("[" + r1.address() + ", " + r2.address() + "]", "[" + r1.address() + "]");
        assertThat(yaml).doesNotContain(r2.address());
        proxy = JarProxy.start(yaml);
        admin = new AdminApi(proxy.adminPort());
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

    /** The servers {@code reads} reads land on: on two connections, as a pool of clients would send them. */
    private Set<Integer> readsLandOn(int reads) throws SQLException {
        Set<Integer> seen = new HashSet<>();
        try (Connection one = connect(); Connection two = connect()) {
            for (int i = 0; i < reads; i++) {
                seen.add(Await.serverId(i % 2 == 0 ? one : two));
            }
        }
        return seen;
    }

    private boolean landsOn(int serverId) {
        try {
            return readsLandOn(10).contains(serverId);
        } catch (SQLException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    @Order(1)
    void aReplicaAddedThroughTheApiServesReads() throws Exception {
        assertThat(readsLandOn(20)).doesNotContain(r2.serverId());
        long version = admin.addReplica("s0", r2.address());
        assertThat(version).isEqualTo(2);
        Await.until("reads reach the added replica", Duration.ofSeconds(20), () -> landsOn(r2.serverId()));
        AdminApi.Response topologyNow = admin.get("/api/v1/topology");
        assertThat(topologyNow.status()).isEqualTo(200);
        assertThat(topologyNow.json().get("version").asLong()).isEqualTo(2);
        assertThat(topologyNow.json().get("applied_version").asLong()).isEqualTo(2);
        assertThat(topologyNow.json().get("proxies").get(0).get("version").asLong()).isEqualTo(2);
        try (Connection connection = connect(); Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SHOW SHARDGATE TOPOLOGY")) {
            Set<String> replicas = new HashSet<>();
            while (rows.next()) {
                assertThat(rows.getString("version")).isEqualTo("2");
                assertThat(rows.getString("store_state")).isEqualTo("OK");
                if (rows.getString("role").equals("replica")) {
                    replicas.add(rows.getString("address") + " " + rows.getString("state"));
                }
            }
            assertThat(replicas).containsExactlyInAnyOrder(r1.address() + " serving", r2.address() + " serving");
        }
    }

    @Test
    @Order(2)
    void aDrainedReplicaFinishesItsStatementAndGetsNoMoreReads() throws Exception {
        admin.state(r1.address(), "draining");
        Await.until("every read lands on r2", Duration.ofSeconds(10), () -> {
            try {
                return readsLandOn(10).equals(Set.of(r2.serverId()));
            } catch (SQLException e) {
                throw new AssertionError(e);
            }
        });
        Connection sleeper = connect();
        CompletableFuture<List<Integer>> sleeping = Await.sleepOn(sleeper, r2);
        long drained = admin.state(r2.address(), "draining");
        assertThat(drained).isEqualTo(4);
        assertThat(readsLandOn(20)).as("after the change applied, no read reaches a draining replica").containsOnly(primary.serverId());
        assertThat(sleeping.get()).as("the statement in flight on the drained replica completes").containsExactly(0, r2.serverId());
        sleeper.close();
        admin.state(r1.address(), "serving");
        Await.until("reads return to r1", Duration.ofSeconds(10), () -> landsOn(r1.serverId()));
        assertThat(readsLandOn(20)).doesNotContain(r2.serverId());
    }

    @Test
    @Order(3)
    void twoWritesRacingOnOneVersionOneWinsTheOtherGets409() {
        long current = admin.get("/api/v1/topology").json().get("version").asLong();
        String body = "{\"max_replica_lag_ms\": 9000}";
        CompletableFuture<AdminApi.Response> first = CompletableFuture.supplyAsync(
                () -> admin.send("PATCH", "/api/v1/routing", body, current));
        CompletableFuture<AdminApi.Response> second = CompletableFuture.supplyAsync(
                () -> admin.send("PUT", "/api/v1/backends/" + r2.address() + "/state", "{\"state\": \"offline\"}", current));
        List<AdminApi.Response> responses = List.of(first.join(), second.join());
        assertThat(responses).extracting(AdminApi.Response::status).containsExactlyInAnyOrder(200, 409);
        AdminApi.Response lost = responses.stream().filter(response -> response.status() == 409).findFirst().orElseThrow();
        assertThat(lost.json().get("current_version").asLong()).isEqualTo(current + 1);
        assertThat(admin.send("PUT", "/api/v1/topology", "{}", -1).status()).as("a whole document needs If-Match").isEqualTo(428);
    }

    @Test
    @Order(4)
    void aRemovedReplicaGetsNoReadsAndTheFileKeepsEveryChange() throws Exception {
        admin.removeReplica("s0", r2.address());
        assertThat(readsLandOn(20)).doesNotContain(r2.serverId());
        String file = Files.readString(proxy.configFile());
        assertThat(file).contains("topology_version").contains("topology_history");
        assertThat(file.substring(file.indexOf("shards:"), file.indexOf("topology_history:"))).contains(r1.address())
                .as("the removed replica is gone from the shards").doesNotContain(r2.address());
        AdminApi.Response history = admin.get("/api/v1/topology/history");
        assertThat(history.json().size()).isGreaterThanOrEqualTo(5);
        assertThat(history.json().get(0).get("by").asText()).isEqualTo("it");
        assertThat(history.json().get(0).get("what").asText()).contains("added replica " + r2.address());
        AdminApi.Response invalid = admin.send("PUT", "/api/v1/backends/" + primary.address() + "/state", "{\"state\": \"draining\"}", -1);
        assertThat(invalid.status()).isEqualTo(400);
        assertThat(invalid.json().get("error").asText()).contains("primary");
        assertThat(admin.health()).startsWith("ok");
    }

    @Test
    @Order(5)
    void aReplacedPrimaryEndsTheTransactionsOnItWithARetryableError() throws Exception {
        primary.execute("CREATE DATABASE IF NOT EXISTS live", "CREATE TABLE IF NOT EXISTS live.t (id INT PRIMARY KEY)");
        Await.until("r1 has the table", Duration.ofSeconds(10), () -> r1.queryString(
                "SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'live'").equals("1"));
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            connection.setAutoCommit(false);
            statement.executeUpdate("INSERT INTO live.t VALUES (1)");
            AdminApi.Response current = admin.get("/api/v1/topology");
            long version = current.json().get("version").asLong();
            var document = (com.fasterxml.jackson.databind.node.ObjectNode) current.json().get("document");
            var shard = (com.fasterxml.jackson.databind.node.ObjectNode) document.get("shards").get(0);
            shard.put("primary", r1.address());
            shard.putArray("replicas");
            assertThat(admin.send("PUT", "/api/v1/topology", document.toString(), version).status()).isEqualTo(200);

            SQLException aborted = org.assertj.core.api.Assertions.catchThrowableOfType(SQLException.class,
                    () -> statement.executeUpdate("INSERT INTO live.t VALUES (2)"));
            assertThat((Object) aborted).as("the transaction on the replaced primary ends").isNotNull();
            assertThat(aborted.getErrorCode()).isEqualTo(1213);
            assertThat(aborted.getSQLState()).isEqualTo("40001");
            assertThat(aborted.getMessage()).contains("rolled back").contains("primary became " + r1.address());
            connection.rollback();
            connection.setAutoCommit(true);
            assertThat(Await.serverId(connection)).as("the session stays usable, on the new primary").isEqualTo(r1.serverId());
        }
        assertThat(primary.queryString("SELECT COUNT(*) FROM live.t")).as("nothing of the ended transaction committed").isEqualTo("0");
        AdminApi.Response now = admin.get("/api/v1/topology");
        var restored = (com.fasterxml.jackson.databind.node.ObjectNode) now.json().get("document");
        var shard = (com.fasterxml.jackson.databind.node.ObjectNode) restored.get("shards").get(0);
        shard.put("primary", primary.address());
        shard.putArray("replicas").add(r1.address());
        assertThat(admin.send("PUT", "/api/v1/topology", restored.toString(), now.json().get("version").asLong()).status())
                .isEqualTo(200);
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.executeUpdate("INSERT INTO live.t VALUES (3)");
        }
        assertThat(primary.queryString("SELECT COUNT(*) FROM live.t")).isEqualTo("1");
    }
}
