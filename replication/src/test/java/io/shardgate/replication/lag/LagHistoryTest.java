package io.shardgate.replication.lag;

import io.shardgate.storage.health.BackendCheck;
import io.shardgate.storage.health.BackendLoop;
import io.shardgate.storage.health.ControlConnection;
import org.junit.jupiter.api.Test;

import java.sql.SQLTransientConnectionException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The ring of one replica's lag samples, and the probe that feeds it once a second. */
class LagHistoryTest {
    private static LagHistory.Sample sample(long epochMillis, long lag) {
        return new LagHistory.Sample(epochMillis, lag == LagHistory.UNKNOWN ? OptionalLong.empty() : OptionalLong.of(lag));
    }

    @Test
    void keepsOneSampleASecondOldestFirst() {
        LagHistory history = new LagHistory(5);
        assertThat(history.samples()).isEmpty();
        assertThat(history.due(1_000)).isTrue();

        history.record(1_000, 0);
        history.record(1_999, 70);
        assertThat(history.due(1_999)).isFalse();
        assertThat(history.due(2_000)).isTrue();
        history.record(2_050, 120);
        history.record(4_010, LagHistory.UNKNOWN);

        assertThat(history.samples()).containsExactly(sample(1_000, 0), sample(2_050, 120), sample(4_010, LagHistory.UNKNOWN));
    }

    @Test
    void wrapsAroundKeepingTheNewestCapacitySamplesInOrder() {
        LagHistory history = new LagHistory(3);
        for (int second = 1; second <= 8; second++) {
            history.record(second * 1_000L, second * 10L);
        }
        assertThat(history.samples()).containsExactly(sample(6_000, 60), sample(7_000, 70), sample(8_000, 80));
        assertThat(history.capacity()).isEqualTo(3);

        history.record(9_500, 90);
        assertThat(history.samples()).hasSize(3).first().isEqualTo(sample(7_000, 70));
        assertThat(history.samples()).last().isEqualTo(sample(9_500, 90));
    }

    @Test
    void aWallClockSteppingBackAddsNothingUntilItPassesTheNewestSample() {
        LagHistory history = new LagHistory(4);
        history.record(10_000, 5);
        history.record(9_000, 6);
        assertThat(history.due(9_000)).isFalse();
        history.record(11_000, 7);
        assertThat(history.samples()).containsExactly(sample(10_000, 5), sample(11_000, 7));
    }

    @Test
    void rejectsNonsense() {
        assertThatThrownBy(() -> new LagHistory(0)).hasMessage("capacity: 0 (expected: >= 1)");
        assertThatThrownBy(() -> new LagHistory(2).record(1_000, -2)).hasMessage("lag: -2 ms (expected: >= 0, or UNKNOWN)");
        assertThat(new LagHistory(LagHistory.DEFAULT_CAPACITY).capacity()).isEqualTo(600);
    }

    /** The monitor's replica probe samples after its polls, once per wall-clock second (run by hand, no sockets). */
    @Test
    void theReplicaProbeRecordsTheLagAtTheFirstPollOfEachSecond() {
        MonitoredServer primary = new MonitoredServer("10.0.0.1", 3306);
        MonitoredServer replica = new MonitoredServer("10.0.0.2", 3306);
        AtomicLong wall = new AtomicLong(1_700_000_000_000L);
        ReplicaLagMonitor monitor = ReplicaLagMonitor.builder().shard("s0").primary(primary).replica(replica)
                .credentials("u", "p").settings(LagMonitorSettings.of(Duration.ofMillis(100), Duration.ofMillis(500),
                        Duration.ofMillis(500))).wallClock(wall::get).build();
        ControlConnection refusing = new ControlConnection((connectTimeout, socketTimeout) -> {
            throw new SQLTransientConnectionException("connection refused");
        });
        Map<MonitoredServer, BackendLoop> loops = new LinkedHashMap<>();
        monitor.start(server -> loops.computeIfAbsent(server, s -> new BackendLoop("shardgate-monitor-" + s, refusing)));
        BackendCheck probe = loops.get(replica).checks().get(0);
        assertThat(monitor.history(replica)).isEmpty();

        probe.run(refusing);
        wall.addAndGet(400);
        probe.run(refusing);
        wall.addAndGet(700);
        probe.run(refusing);

        List<LagHistory.Sample> samples = monitor.history(replica);
        assertThat(samples).containsExactly(sample(1_700_000_000_000L, LagHistory.UNKNOWN),
                sample(1_700_000_001_100L, LagHistory.UNKNOWN));
        assertThat(monitor.history(primary)).as("the primary has no lag").isEmpty();

        monitor.removeReplica(replica);
        assertThat(monitor.history(replica)).isEmpty();
        monitor.close();
    }
}
