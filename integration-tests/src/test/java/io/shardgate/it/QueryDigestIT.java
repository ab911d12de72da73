package io.shardgate.it;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.shardgate.replication.topology.Topology;
import io.shardgate.replication.topology.TopologySpec;
import io.shardgate.storage.Engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Query digests through the packaged proxy against a real MariaDB: statements that differ only in
 * their values count together, with their rows, errors and latency, in SHOW SHARDGATE QUERIES,
 * GET /api/v1/queries and the top digests' meters in /metrics.
 */
class QueryDigestIT {
    private static ProxyFixture proxy;

    @BeforeAll
    static void start() {
        proxy = ProxyFixture.withOwnShard(Map.of(), "digests: { enabled: true, max_entries: 1000, metrics_top: 2 }\n",
                "CREATE DATABASE dg", "CREATE TABLE dg.t (id INT PRIMARY KEY, c VARCHAR(20))");
    }

    @AfterAll
    static void stop() {
        if (proxy != null) {
            proxy.close();
        }
    }

    private static HttpResponse<String> admin(String path) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + proxy.adminPort() + path))
                .header("Authorization", "Bearer " + ProxyFixture.ADMIN_TOKEN).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static Map<String, Map<String, String>> shown(Connection c) throws SQLException {
        Map<String, Map<String, String>> shown = new HashMap<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SHOW SHARDGATE QUERIES")) {
            while (rs.next()) {
                Map<String, String> row = new HashMap<>();
                for (String column : List.of("count", "errors", "rows_sent", "rows_affected", "shards_touched", "sharded_count")) {
                    row.put(column, rs.getString(column));
                }
                shown.put(rs.getString("digest_text"), row);
            }
        }
        return shown;
    }

    @Test
    void shardedStatementsCountTheShardsTheyTouched() throws Exception {
        Topology topology = Topology.start(TopologySpec.builder().shard("s0", Engine.INNODB, 0).shard("s1", Engine.INNODB, 0).build());
        ProxyFixture sharded = null;
        try {
            for (String shard : List.of("s0", "s1")) {
                topology.shard(shard).primary().execute("CREATE DATABASE sg", "CREATE TABLE sg.c (id BIGINT PRIMARY KEY, v INT)");
            }
            sharded = ProxyFixture.start(topology, ProxyFixture.HALVES, """
                    schemas:
                      - name: sg
                        tables:
                          c: { shard_key: id, vindex: hash }
                    """);
            try (Connection c = sharded.mariadb("sg", "")) {
                try (Statement s = c.createStatement()) {
                    assertThat(s.executeUpdate("INSERT INTO c (id, v) VALUES (1, 1), (2, 2), (3, 3), (4, 4), (5, 5), (6, 6)"))
                            .isEqualTo(6);
                    for (int id = 1; id <= 3; id++) {
                        try (ResultSet rs = s.executeQuery("SELECT v FROM c WHERE id = " + id)) {
                            assertThat(rs.next()).isTrue();
                        }
                    }
                    try (ResultSet rs = s.executeQuery("SELECT id FROM c ORDER BY id")) {
                        int rows = 0;
                        while (rs.next()) {
                            rows++;
                        }
                        assertThat(rows).isEqualTo(6);
                    }
                }
                Map<String, Map<String, String>> shown = shown(c);
                assertThat(shown.get("SELECT v FROM c WHERE id = ?")).as("one shard each, direct")
                        .containsEntry("count", "3").containsEntry("rows_sent", "3").containsEntry("shards_touched", "3")
                        .containsEntry("sharded_count", "0");
                assertThat(shown.get("SELECT id FROM c ORDER BY id")).as("a scatter over both shards")
                        .containsEntry("count", "1").containsEntry("rows_sent", "6").containsEntry("shards_touched", "2")
                        .containsEntry("sharded_count", "1");
                assertThat(shown.get("INSERT INTO c (id, v) VALUES (...)")).as("split over both shards")
                        .containsEntry("count", "1").containsEntry("rows_affected", "6").containsEntry("shards_touched", "2");
            }
        } finally {
            ProxyFixture.stop(sharded, topology);
        }
    }

    @Test
    void statementsCountPerDigestInShowTheApiAndMetrics() throws Exception {
        try (Connection c = proxy.mariadb("dg", "useServerPrepStmts=true")) {
            try (Statement s = c.createStatement()) {
                s.executeUpdate("INSERT INTO t VALUES (1, 'a'), (2, 'b'), (3, 'c')");
                s.executeUpdate("insert into t values (4, 'd')");
                for (int i = 1; i <= 4; i++) {
                    try (ResultSet rs = s.executeQuery("SELECT c FROM t WHERE id IN (" + i + ", " + (i + 1) + ")")) {
                        while (rs.next()) {
                            assertThat(rs.getString(1)).isNotEmpty();
                        }
                    }
                }
                assertThatThrownBy(() -> s.executeQuery("SELECT nope FROM t WHERE id = 1")).isInstanceOf(SQLException.class);
            }
            try (PreparedStatement p = c.prepareStatement("SELECT c FROM t WHERE id = ?")) {
                p.setInt(1, 2);
                try (ResultSet rs = p.executeQuery()) {
                    assertThat(rs.next()).isTrue();
                }
            }
            Map<String, Map<String, String>> shown = new HashMap<>();
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SHOW SHARDGATE QUERIES")) {
                while (rs.next()) {
                    Map<String, String> row = new HashMap<>();
                    for (String column : new String[] {"digest", "schema", "count", "errors", "rows_sent", "rows_affected", "p99_us"}) {
                        row.put(column, rs.getString(column));
                    }
                    shown.put(rs.getString("digest_text"), row);
                }
            }
            assertThat(shown.get("INSERT INTO t VALUES (...)")).containsEntry("count", "2").containsEntry("rows_affected", "4")
                    .containsEntry("schema", "dg");
            assertThat(shown.get("SELECT c FROM t WHERE id IN (...)")).containsEntry("count", "4").containsEntry("rows_sent", "7") // ids 1..4 exist: 2 + 2 + 2 + 1
                    .containsEntry("errors", "0");
            assertThat(shown.get("SELECT nope FROM t WHERE id = ?")).containsEntry("count", "1").containsEntry("errors", "1");
            assertThat(shown.get("SELECT c FROM t WHERE id = ?")).as("COM_STMT_EXECUTE counts under its prepared text")
                    .containsEntry("count", "1").containsEntry("rows_sent", "1");
            assertThat(Long.parseLong(shown.get("SELECT c FROM t WHERE id IN (...)").get("p99_us"))).isPositive();
        }

        HttpResponse<String> api = admin("/api/v1/queries?order=count&limit=1");
        assertThat(api.statusCode()).isEqualTo(200);
        JsonNode json = new ObjectMapper().readTree(api.body());
        assertThat(json.get("queries")).hasSize(1);
        assertThat(json.get("queries").get(0).get("digest_text").asText()).isEqualTo("SELECT c FROM t WHERE id IN (...)");
        assertThat(json.get("queries").get(0).get("count").asLong()).isEqualTo(4);
        assertThat(admin("/api/v1/queries?order=nonsense").statusCode()).isEqualTo(400);

        HttpResponse<String> metrics = admin("/metrics");
        assertThat(metrics.statusCode()).isEqualTo(200);
        long latencyLines = metrics.body().lines().filter(line -> line.startsWith("shardgate_query_digest_latency_seconds{")).count();
        assertThat(latencyLines).as("three quantiles of the top 2 digests, no more").isEqualTo(6);
        assertThat(metrics.body().lines().filter(line -> line.startsWith("shardgate_query_digest_statements_total{")).count())
                .isEqualTo(2);
    }
}
