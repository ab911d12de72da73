package io.shardgate.replication.lag;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
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
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
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
