package io.shardgate.proxy.routing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.shardgate.proxy.backend.BackendConnector;
import io.shardgate.proxy.backend.BackendPool;
import io.shardgate.proxy.backend.BackendTarget;
import io.shardgate.proxy.config.HostPort;
import io.shardgate.proxy.transport.Transport;
import io.shardgate.replication.lag.LagMonitorSettings;
import io.shardgate.replication.lag.MonitoredServer;
import io.shardgate.replication.lag.ReplicaLagMonitor;
import io.shardgate.storage.health.BackendLoop;
import io.shardgate.storage.health.ControlConnection;
import org.junit.jupiter.api.Test;

import java.sql.SQLTransientConnectionException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code GET /api/v1/lag/history}'s JSON, from the lag monitors' histories (polls run by hand, no sockets). */
class BackendReportLagHistoryTest {
    @Test
    void eachReplicaOfEachShardWithItsSamplesOldestFirstAndUnknownAsNull() throws Exception {
        MonitoredServer replica = new MonitoredServer("10.0.0.2", 3306);
        AtomicLong wall = new AtomicLong(1_700_000_000_000L);
        ReplicaLagMonitor monitor = ReplicaLagMonitor.builder().shard("s0").primary(new MonitoredServer("10.0.0.1", 3306))
                .replica(replica).credentials("u", "p").wallClock(wall::get)
                .settings(LagMonitorSettings.of(Duration.ofMillis(100), Duration.ofMillis(500), Duration.ofMillis(500))).build();
        ControlConnection refusing = new ControlConnection((connectTimeout, socketTimeout) -> {
            throw new SQLTransientConnectionException("connection refused");
        });
        Map<MonitoredServer, BackendLoop> loops = new LinkedHashMap<>();
        monitor.start(server -> loops.computeIfAbsent(server, s -> new BackendLoop("test-" + s, refusing)));
        BackendConnector connector = new BackendConnector(Transport.best(), "b", "b", Duration.ofMillis(200), false, 8);
        BackendPool primary = new BackendPool(new BackendTarget("s0", "primary", new HostPort("10.0.0.1", 3306)), connector, 2,
                Duration.ofMillis(200));
        BackendPool replicaPool = new BackendPool(new BackendTarget("s0", "replica", new HostPort("10.0.0.2", 3306)), connector, 2,
                Duration.ofMillis(200));
        BackendPool lonePrimary = new BackendPool(new BackendTarget("s1", "primary", new HostPort("10.0.0.3", 3306)), connector, 2,
                Duration.ofMillis(200));
        BackendReport report = new BackendReport(List.of(
                new ShardBackends("s0", primary, List.of(new ReplicaBackend(replicaPool, replica)), monitor, null),
                new ShardBackends("s1", lonePrimary, List.of(), null, null)));
        JsonNode empty = new ObjectMapper().readTree(report.lagHistoryJson());
        assertThat(empty.get("replicas")).hasSize(1);
        assertThat(empty.at("/replicas/0/samples")).isEmpty();

        loops.get(replica).checks().get(0).run(refusing);
        wall.addAndGet(1_000);
        loops.get(replica).checks().get(0).run(refusing);

        JsonNode json = new ObjectMapper().readTree(report.lagHistoryJson());
        assertThat(json.at("/replicas/0/shard").asText()).isEqualTo("s0");
        assertThat(json.at("/replicas/0/address").asText()).isEqualTo("10.0.0.2:3306");
        assertThat(json.at("/replicas/0/samples").toString())
                .isEqualTo("[[1700000000000,null],[1700000001000,null]]");
        monitor.close();
    }
}
