package io.shardgate.storage.health;

import io.shardgate.storage.BackendEndpoint;
import io.shardgate.storage.Engine;
import io.shardgate.storage.InnoDbAdapter;
import org.junit.jupiter.api.Test;

import java.sql.SQLTransientConnectionException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The health monitor as one check of its backend's shared loop, run by hand over a refusing connection. No sockets. */
class HealthMonitorTest {
    private final BackendEndpoint backend = new BackendEndpoint("s0", "replica", Engine.INNODB, "10.0.0.2", 3306, "u", "p");
    private final AtomicInteger connects = new AtomicInteger();
    private final ControlConnection refusing = new ControlConnection((connectTimeout, socketTimeout) -> {
        connects.incrementAndGet();
        throw new SQLTransientConnectionException("connection refused");
    });

    @Test
    void onASharedLoopEachRunIsOneProbeAndClosingStopsTheProbesButNotTheLoop() {
        List<HealthReport> reports = new ArrayList<>();
        HealthSettings settings = HealthSettings.defaults();
        HealthMonitor monitor = new HealthMonitor(backend, new InnoDbAdapter(), settings, reports::add);
        BackendLoop loop = new BackendLoop("shardgate-monitor-10.0.0.2:3306", refusing);
        assertThat(monitor.current().reasons()).containsExactly("not probed yet");

        monitor.start(loop);
        assertThat(loop.checks()).containsExactly(monitor);
        assertThat(monitor.interval()).isEqualTo(settings.interval());
        assertThatThrownBy(monitor::start).hasMessageContaining("already started");

        monitor.run(refusing);
        assertThat(monitor.current().state()).isEqualTo(HealthState.FAILED);
        assertThat(monitor.current().reasons()).containsExactly("unreachable: connection refused");
        assertThat(reports).containsExactly(monitor.current());
        assertThat(connects).hasValue(1);

        monitor.close();
        monitor.run(refusing);
        assertThat(connects).as("a closed monitor probes no more, though its shared loop may run on").hasValue(1);
        assertThat(reports).hasSize(1);
        assertThat(loop.isStopped()).as("closing the monitor leaves the shared loop to its owner").isTrue();
    }
}
