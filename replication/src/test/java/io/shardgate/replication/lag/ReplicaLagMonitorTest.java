package io.shardgate.replication.lag;

import io.shardgate.storage.health.BackendCheck;
import io.shardgate.storage.health.BackendLoop;
import io.shardgate.storage.health.ControlConnection;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.ServerSocket;
import java.sql.SQLTransientConnectionException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The monitor's life cycle and configuration errors, against ports where nothing listens. */
class ReplicaLagMonitorTest {

    private static MonitoredServer closedPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return new MonitoredServer("127.0.0.1", socket.getLocalPort());
        }
    }

    @Test
    void serversThatRefuseConnectionsAreUnreachableAndClosingEndsEveryThread() throws IOException {
        MonitoredServer replica = closedPort();
        ReplicaLagMonitor monitor = ReplicaLagMonitor.builder()
                .shard("s0")
                .primary(closedPort())
                .replica(replica)
                .credentials("nobody", "nothing")
                .build();
        assertThat(monitor.status(replica).state()).isEqualTo(ReplicaState.UNKNOWN);

        monitor.start();
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (monitor.status(replica).state() != ReplicaState.UNREACHABLE && System.nanoTime() - deadline < 0) {
            LockSupport.parkNanos(Duration.ofMillis(5).toNanos());
        }
        monitor.close();

        ReplicaLag lag = monitor.status(replica);
        assertThat(lag.state()).isEqualTo(ReplicaState.UNREACHABLE);
        assertThat(lag.isInfinitelyStale()).isTrue();
        assertThat(lag.lastError()).isNotEmpty();
        assertThat(monitor.primaryPosition().isEmpty()).isTrue();
        assertThat(Thread.getAllStackTraces().keySet()).noneMatch(t -> t.getName().startsWith("shardgate-lag-s0-"));
        assertThatThrownBy(monitor::start).hasMessage("lag monitor of shard s0 already started or closed");
    }

    /** The proxy's way: each server's probe joins that server's shared loop (run here by hand, no sockets). */
    @Test
    void onSharedLoopsEachServerGetsOneProbeAndClosingStopsThem() {
        MonitoredServer primary = new MonitoredServer("10.0.0.1", 3306);
        MonitoredServer replica = new MonitoredServer("10.0.0.2", 3306);
        LagMonitorSettings settings = LagMonitorSettings.of(Duration.ofMillis(100), Duration.ofMillis(500), Duration.ofMillis(500));
        ReplicaLagMonitor monitor = ReplicaLagMonitor.builder().shard("s0").primary(primary).replica(replica)
                .credentials("u", "p").settings(settings).build();
        AtomicInteger connects = new AtomicInteger();
        ControlConnection refusing = new ControlConnection((connectTimeout, socketTimeout) -> {
            connects.incrementAndGet();
            throw new SQLTransientConnectionException("connection refused");
        });
        Map<MonitoredServer, BackendLoop> loops = new LinkedHashMap<>();
        monitor.start(server -> loops.computeIfAbsent(server, s -> new BackendLoop("shardgate-monitor-" + s, refusing)));

        assertThat(loops).containsOnlyKeys(primary, replica);
        assertThat(loops.values()).allMatch(loop -> loop.checks().size() == 1);
        BackendCheck replicaProbe = loops.get(replica).checks().get(0);
        assertThat(replicaProbe.interval()).isEqualTo(Duration.ofMillis(100));
        replicaProbe.run(refusing);
        ReplicaLag lag = monitor.status(replica);
        assertThat(lag.state()).isEqualTo(ReplicaState.UNREACHABLE);
        assertThat(lag.lastError()).isEqualTo("connection refused");
        assertThat(lag.isInfinitelyStale()).isTrue();
        assertThat(connects).hasValue(1);
        assertThatThrownBy(monitor::start).hasMessage("lag monitor of shard s0 already started or closed");

        monitor.close();
        loops.values().forEach(loop -> loop.checks().get(0).run(refusing));
        assertThat(connects).as("a closed monitor polls no more, though the shared loops may run on").hasValue(1);
    }

    @Test
    void rejectsIncompleteOrContradictoryConfiguration() {
        MonitoredServer primary = new MonitoredServer("10.0.0.1", 3306);
        MonitoredServer replica = new MonitoredServer("10.0.0.2", 3306);

        assertThatThrownBy(() -> ReplicaLagMonitor.builder().shard("s0").primary(primary).credentials("u", "p").build())
                .hasMessage("shard s0 has no replica to monitor");
        assertThatThrownBy(() -> ReplicaLagMonitor.builder().shard("s0").primary(primary).replica(replica).build())
                .hasMessage("user is null (call credentials)");
        assertThatThrownBy(() -> ReplicaLagMonitor.builder().shard("s0").primary(primary).replica(primary)
                .credentials("u", "p").build())
                .hasMessage("primary 10.0.0.1:3306 of shard s0 is also listed as a replica");
        assertThatThrownBy(() -> new MonitoredServer("db", 0)).hasMessage("port: 0 (expected: 1 to 65535)");
        assertThat(ReplicaLagMonitor.builder().shard("s0").primary(primary).replica(replica).credentials("u", "p")
                .build().settings()).isEqualTo(LagMonitorSettings.defaults());
    }
}
