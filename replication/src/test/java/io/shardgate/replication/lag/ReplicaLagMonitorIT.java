package io.shardgate.replication.lag;

import io.shardgate.replication.gtid.MariaDbGtidPosition;
import io.shardgate.replication.topology.Node;
import io.shardgate.replication.topology.Shard;
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

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * The lag monitor against a real shard (a primary and two replicas, GTID replication) while a
 * writer inserts a row every 10 ms: healthy replicas, a stopped SQL thread, a SQL thread blocked
 * by a read lock, a frozen replica, an idle primary, and a commit the proxy reports itself.
 *
 * <p>"Staleness passed 500 ms" is measured from the writer's side: once the replica's last row is
 * known, the next row was sent at {@code w}; the replica lacks a write committed no earlier than
 * {@code w}, so its real staleness passes 500 ms no earlier than {@code w + 500 ms}. The monitor
 * must report more than 500 ms by {@code w + 1500 ms}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ReplicaLagMonitorIT {
    private static final Duration WRITE_PERIOD = Duration.ofMillis(10);
    private static final long HEALTHY_BOUND_MS = 300;
    private static final long STALE_MS = 500;
    private static final long NANOS_PER_MS = 1_000_000;

    private Topology topology;
    private Node primary;
    private Node stuck;
    private Node other;
    private MonitoredServer stuckServer;
    private MonitoredServer otherServer;
    private ReplicaLagMonitor monitor;
    private SteadyWriter writer;
    private final List<String> measurements = new ArrayList<>();

    @BeforeAll
    void start() {
        topology = Topology.start(TopologySpec.builder().shard("s0", Engine.INNODB, 2).build());
        Shard shard = topology.shard("s0");
        primary = shard.primary();
        stuck = shard.replica(0);
        other = shard.replica(1);
        primary.execute("CREATE DATABASE lagtest", "CREATE TABLE lagtest.t (id BIGINT PRIMARY KEY)");
        topology.awaitReplication(Duration.ofSeconds(30));
        stuckServer = server(stuck);
        otherServer = server(other);
        monitor = ReplicaLagMonitor.builder()
                .shard("s0")
                .primary(server(primary))
                .replica(stuckServer)
                .replica(otherServer)
                .credentials(topology.accounts().user(), topology.accounts().password())
                .build();
        monitor.start();
        writer = SteadyWriter.start(primary, "lagtest.t", WRITE_PERIOD);
    }

    @AfterAll
    void stop() {
        measurements.forEach(line -> System.out.println("[lag-it] " + line));
        if (writer != null) {
            writer.close();
        }
        if (monitor != null) {
            monitor.close();
        }
        if (topology != null) {
            topology.close();
        }
    }

    @Test
    @Order(1)
    void healthyReplicasReportSmallLag() {
        awaitLag(stuckServer, lag -> lag.state() == ReplicaState.HEALTHY && lag.fitsLagBudget(HEALTHY_BOUND_MS),
                Duration.ofSeconds(10), "healthy");
        awaitLag(otherServer, lag -> lag.state() == ReplicaState.HEALTHY && lag.fitsLagBudget(HEALTHY_BOUND_MS),
                Duration.ofSeconds(10), "healthy");

        // Watch both for 40 polls' worth of samples while rows keep arriving.
        long samplesBefore = monitor.status(stuckServer).samples();
        int rowsBefore = writer.sent();
        long worst = 0;
        long total = 0;
        int readings = 0;
        while (monitor.status(stuckServer).samples() < samplesBefore + 40) {
            for (ReplicaLag lag : monitor.snapshot()) {
                assertThat(lag.state()).as(lag.toString()).isEqualTo(ReplicaState.HEALTHY);
                assertThat(lag.lagMillis()).as(lag.toString()).isPresent();
                assertThat(lag.lagMillis().getAsLong()).as(lag.toString()).isLessThanOrEqualTo(HEALTHY_BOUND_MS);
                worst = Math.max(worst, lag.lagMillis().getAsLong());
                total += lag.lagMillis().getAsLong();
                readings++;
            }
            LockSupport.parkNanos(2 * NANOS_PER_MS);
        }
        assertThat(writer.sent()).as("the primary was being written").isGreaterThan(rowsBefore + 50);
        assertThat(writer.failure()).isNull();
        measurements.add(String.format("healthy under writes: mean %.1f ms, max %d ms over %d readings",
                (double) total / readings, worst, readings));
    }

    @Test
    @Order(2)
    void aStoppedSqlThreadShowsLagWithinOneSecondOfBeingStale() {
        stuck.stopSqlThread();
        long stoppedAt = System.nanoTime();
        try {
            assertStaleReportedInTime("SQL thread stopped", stoppedAt);

            ReplicaLag lag = monitor.status(stuckServer);
            assertThat(lag.state()).isEqualTo(ReplicaState.SQL_THREAD_STOPPED);
            assertThat(lag.sqlThreadRunning()).isFalse();
            assertThat(lag.ioThreadRunning()).isTrue();
            assertThat(monitor.status(otherServer).fitsLagBudget(HEALTHY_BOUND_MS))
                    .as("the other replica meanwhile: " + monitor.status(otherServer)).isTrue();
        } finally {
            stuck.startSqlThread();
        }
        assertRecovers("SQL thread restarted");
    }

    @Test
    @Order(3)
    void aSqlThreadBlockedByAReadLockShowsLagWhileLookingHealthy() {
        Node.Block block = stuck.blockWithReadLock();
        try {
            assertStaleReportedInTime("SQL thread blocked by a read lock", System.nanoTime());

            ReplicaLag lag = monitor.status(stuckServer);
            assertThat(lag.state()).as("the server reports nothing wrong").isEqualTo(ReplicaState.HEALTHY);
            assertThat(lag.sqlThreadRunning()).isTrue();
            assertThat(stuck.replicaStatus().get("Slave_SQL_Running")).isEqualTo("Yes");
        } finally {
            block.close();
        }
        assertRecovers("read lock released");
    }

    @Test
    @Order(4)
    void aFrozenReplicaIsInfinitelyStaleAndTheOtherIsNotDelayed() {
        stuck.freeze();
        long frozenAt = System.nanoTime();
        try {
            long staleAt = awaitLag(stuckServer, ReplicaLag::isInfinitelyStale, Duration.ofSeconds(5),
                    "infinitely stale after SIGSTOP");
            long unreachableAt = awaitLag(stuckServer, lag -> lag.state() == ReplicaState.UNREACHABLE,
                    Duration.ofSeconds(5), "unreachable after SIGSTOP");
            ReplicaLag otherLag = monitor.status(otherServer);
            assertThat(otherLag.fitsLagBudget(HEALTHY_BOUND_MS)).as("the other replica meanwhile: " + otherLag).isTrue();
            assertThat(otherLag.sinceLastPollMillis().getAsLong()).as("its polls go on").isLessThan(200);
            assertThat(millis(staleAt - frozenAt)).as("infinitely stale after freezing").isLessThanOrEqualTo(1_500);
            measurements.add("frozen: infinitely stale after " + millis(staleAt - frozenAt) + " ms, UNREACHABLE after "
                    + millis(unreachableAt - frozenAt) + " ms (" + monitor.status(stuckServer).lastError() + ")");
        } finally {
            stuck.thaw();
        }
        assertRecovers("thawed");
    }

    @Test
    @Order(5)
    void caughtUpReplicasOfAnIdlePrimaryReportExactlyZero() {
        writer.close();
        assertThat(writer.failure()).isNull();
        topology.awaitReplication(Duration.ofSeconds(30));
        MariaDbGtidPosition end = MariaDbGtidPosition.parse(primary.gtidBinlogPos());

        // Lag 0 means "has everything the monitor knows of": wait until that includes the last write.
        for (MonitoredServer replica : monitor.replicas()) {
            awaitLag(replica, lag -> lag.fitsLagBudget(0) && lag.appliedPosition().hasReached(end),
                    Duration.ofSeconds(5), "lag 0 at " + end + " once idle");
        }
        long samplesBefore = monitor.status(stuckServer).samples();
        while (monitor.status(stuckServer).samples() < samplesBefore + 5) {
            for (ReplicaLag lag : monitor.snapshot()) {
                assertThat(lag.lagMillis()).as(lag.toString()).hasValue(0);
                assertThat(lag.state()).isEqualTo(ReplicaState.HEALTHY);
                assertThat(lag.appliedPosition().hasReached(end)).isTrue();
            }
            LockSupport.parkNanos(5 * NANOS_PER_MS);
        }
        assertThat(monitor.primaryPosition()).isEqualTo(end);
    }

    @Test
    @Order(6)
    void aStoppedCaughtUpReplicaIsFreshUntilTheProxyReportsACommitItLacks() throws Exception {
        stuck.stopSqlThread();
        try {
            awaitLag(stuckServer, lag -> lag.state() == ReplicaState.SQL_THREAD_STOPPED, Duration.ofSeconds(5),
                    "SQL_THREAD_STOPPED");
            assertThat(monitor.status(stuckServer).lagMillis()).as("nothing to apply").hasValue(0);

            MariaDbGtidPosition committed;
            long sentAt;
            try (Connection connection = primary.connect(); Statement statement = connection.createStatement()) {
                sentAt = System.nanoTime();
                statement.executeUpdate("INSERT INTO lagtest.t (id) VALUES (-1)");
                try (ResultSet rows = statement.executeQuery("SELECT @@SESSION.last_gtid")) {
                    rows.next();
                    committed = MariaDbGtidPosition.parse(rows.getString(1));
                }
            }
            monitor.observePrimary(committed, sentAt);

            assertThat(monitor.primaryPosition().hasReached(committed)).isTrue();
            ReplicaLag lag = monitor.status(stuckServer);
            assertThat(lag.fitsLagBudget(0)).as(lag.toString()).isFalse();
            assertThat(lag.lagMillis()).as(lag.toString()).isPresent();
            awaitLag(otherServer, other -> other.fitsLagBudget(0), Duration.ofSeconds(5), "other applies the commit");
        } finally {
            stuck.startSqlThread();
        }
        awaitLag(stuckServer, lag -> lag.fitsLagBudget(0), Duration.ofSeconds(10), "lag 0 after applying the commit");
    }

    /**
     * Once {@code replica} has stopped applying: its last row {@code n} and when row {@code n + 1}
     * was sent, plus 500 ms. Its real staleness passes 500 ms no earlier than that.
     */
    private long stalenessPassesLimitAt(Node replica) {
        long last = Long.parseLong(replica.queryString("SELECT COALESCE(MAX(id), 0) FROM lagtest.t"));
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        while (writer.sentAt(last + 1).isEmpty()) {
            if (System.nanoTime() - deadline > 0) {
                fail("the writer never sent row " + (last + 1) + ": " + writer.failure());
            }
            LockSupport.parkNanos(NANOS_PER_MS);
        }
        return writer.sentAt(last + 1).getAsLong() + STALE_MS * NANOS_PER_MS;
    }

    /**
     * Once the stuck replica has stopped applying (a fault at {@code faultAt}): it must report
     * lag > 500 ms no later than 1 s after its real staleness passed 500 ms, and within 1.5 s of
     * the fault; and not much before real staleness (the bound is tight to about a poll interval).
     */
    private void assertStaleReportedInTime(String what, long faultAt) {
        long staleAt = stalenessPassesLimitAt(stuck);
        long detectedAt = awaitLag(stuckServer, lag -> lag.lagMillis().orElse(0) > STALE_MS,
                Duration.ofSeconds(5), "lag > 500 ms: " + what);
        long afterStale = millis(detectedAt - staleAt);
        measurements.add(String.format("%s: lag > 500 ms reported %d ms after staleness passed 500 ms"
                + " (%d ms after the fault)", what, afterStale, millis(detectedAt - faultAt)));
        assertThat(afterStale).as(what + ": reported after staleness passed 500 ms, in ms").isLessThanOrEqualTo(1_000);
        assertThat(afterStale).as(what + ": not reported long before real staleness (resolution), in ms")
                .isGreaterThanOrEqualTo(-150);
        assertThat(millis(detectedAt - faultAt)).as(what + ": ms after the fault").isLessThanOrEqualTo(1_500);
    }

    /** The stuck replica, no longer stuck, is healthy again with a small lag. */
    private void assertRecovers(String what) {
        long from = System.nanoTime();
        long recoveredAt = awaitLag(stuckServer,
                lag -> lag.state() == ReplicaState.HEALTHY && lag.fitsLagBudget(HEALTHY_BOUND_MS),
                Duration.ofSeconds(10), "healthy again: " + what);
        measurements.add(what + ": healthy with lag <= 300 ms after " + millis(recoveredAt - from) + " ms");
    }

    /** Polls the monitor every 2 ms until {@code condition} holds; returns when it first did. */
    private long awaitLag(MonitoredServer replica, Predicate<ReplicaLag> condition, Duration timeout, String what) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            long now = System.nanoTime();
            ReplicaLag lag = monitor.status(replica);
            if (condition.test(lag)) {
                return now;
            }
            if (now - deadline > 0) {
                fail(replica + " not " + what + " within " + timeout.toMillis() + " ms: " + lag);
            }
            LockSupport.parkNanos(2 * NANOS_PER_MS);
        }
    }

    private static long millis(long nanos) {
        return Math.floorDiv(nanos, NANOS_PER_MS);
    }

    private static MonitoredServer server(Node node) {
        return new MonitoredServer(node.host(), node.port());
    }
}
