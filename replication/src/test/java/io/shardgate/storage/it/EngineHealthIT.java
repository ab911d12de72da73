package io.shardgate.storage.it;

import io.shardgate.replication.topology.Node;
import io.shardgate.storage.Engine;
import io.shardgate.storage.StorageAdapters;
import io.shardgate.storage.health.EngineMetric;
import io.shardgate.storage.health.HealthMonitor;
import io.shardgate.storage.health.HealthSettings;
import io.shardgate.storage.health.HealthState;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Health monitors against a real InnoDB and a real MyRocks server, probing once a second:
 * <ul>
 *   <li>MyRocks writes stall (a 1 MB write buffer flushed through a 1 MB/s rate limiter, both set
 *       at server start, under about 12 MB of incompressible inserts): STALLED within 5 s of the
 *       first stall the server counts, never FAILED meanwhile (reading the global status waits
 *       while writes are stopped; a second monitor with a 200 ms status timeout shows that such a
 *       wait is reported as STALLED), and OK again after the writes end;</li>
 *   <li>an InnoDB read view held open under write load pushes the history list above the
 *       threshold: DEGRADED, and OK once it closes;</li>
 *   <li>a killed server: FAILED.</li>
 * </ul>
 * The delays measured are printed with the prefix {@code [health-it]}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class EngineHealthIT {
    private static final long HISTORY_THRESHOLD = 500;
    private static final Duration STALL_BOUND = Duration.ofSeconds(5);

    private EngineShards shards;
    private Node innodb;
    private Node rocksdb;
    private final Reports innodbReports = new Reports();
    private final Reports rocksdbReports = new Reports();
    private HealthMonitor innodbMonitor;
    private HealthMonitor rocksdbMonitor;
    private final Reports impatientReports = new Reports();
    private HealthMonitor impatientMonitor;
    private final List<String> measurements = new ArrayList<>();

    @BeforeAll
    void start() {
        // loose-: the InnoDB node has no rocksdb plugin and ignores them.
        shards = EngineShards.start(Map.of(
                "loose-rocksdb_rate_limiter_bytes_per_sec", "1048576",
                "loose-rocksdb_default_cf_options", "write_buffer_size=1m"));
        innodb = shards.innodb();
        rocksdb = shards.rocksdb();
        StorageAdapters adapters = shards.adapters();
        HealthSettings settings = HealthSettings.defaults().withHistoryListThreshold(HISTORY_THRESHOLD);
        innodbMonitor = new HealthMonitor(shards.backend(Engine.INNODB), adapters.forEngine(Engine.INNODB), settings,
                innodbReports);
        rocksdbMonitor = new HealthMonitor(shards.backend(Engine.ROCKSDB), adapters.forEngine(Engine.ROCKSDB), settings,
                rocksdbReports);
        // Probed ten times as often: a stop lasts under a second, and a probe must land in one to see its status read wait.
        HealthSettings impatient = new HealthSettings(settings.interval().dividedBy(10), settings.connectTimeout(),
                settings.socketTimeout(), HISTORY_THRESHOLD, settings.slowCheckInterval(), Duration.ofMillis(200));
        impatientMonitor = new HealthMonitor(shards.backend(Engine.ROCKSDB), adapters.forEngine(Engine.ROCKSDB), impatient,
                impatientReports);
        innodbMonitor.start();
        rocksdbMonitor.start();
        impatientMonitor.start();
        assertThat(innodbReports.await(0, r -> r.state() == HealthState.OK, Duration.ofSeconds(10)))
                .as("InnoDB OK at start: " + innodbReports.last()).isNotNull();
        assertThat(rocksdbReports.await(0, r -> r.state() == HealthState.OK, Duration.ofSeconds(10)))
                .as("MyRocks OK at start: " + rocksdbReports.last()).isNotNull();
    }

    @AfterAll
    void stop() {
        measurements.forEach(line -> System.out.println("[health-it] " + line));
        if (innodbMonitor != null) {
            innodbMonitor.close();
        }
        if (rocksdbMonitor != null) {
            rocksdbMonitor.close();
        }
        if (impatientMonitor != null) {
            impatientMonitor.close();
        }
        if (shards != null) {
            shards.close();
        }
    }

    @Test
    @Order(1)
    void myRocksWriteStallsAreStalledWithinFiveSecondsAndOkAfter() throws Exception {
        rocksdb.execute("CREATE DATABASE st", "CREATE TABLE st.t (id INT AUTO_INCREMENT PRIMARY KEY, v VARBINARY(1000))");
        Map<String, Long> before = stallCounters();
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            long writeStart = System.nanoTime();
            Future<Long> writer = pool.submit(() -> {
                try (Connection connection = rocksdb.connect(); Statement statement = connection.createStatement()) {
                    for (int i = 0; i < 12; i++) {
                        statement.execute("INSERT INTO st.t (v) SELECT RANDOM_BYTES(1000) FROM st.seq_1_to_1000");
                    }
                }
                return System.nanoTime();
            });
            // The first moment the server itself counts a stall, checked every 20 ms.
            Future<Long> firstStall = pool.submit(() -> {
                while (!writer.isDone()) {
                    Map<String, Long> now = stallCounters();
                    if (now.get("Rocksdb_stall_total_stops") > before.get("Rocksdb_stall_total_stops")
                            || now.get("Rocksdb_stall_total_slowdowns") > before.get("Rocksdb_stall_total_slowdowns")) {
                        return System.nanoTime();
                    }
                    LockSupport.parkNanos(Duration.ofMillis(20).toNanos());
                }
                return -1L;
            });
            long stalledAt = firstStall.get(60, TimeUnit.SECONDS);
            assertThat(stalledAt).as("the writes stalled on the server").isPositive();
            Reports.Arrival stalled = rocksdbReports.await(stalledAt, r -> r.state() == HealthState.STALLED,
                    STALL_BOUND.plusSeconds(1));
            assertThat(stalled).as("STALLED after the first stall: " + rocksdbReports.last()).isNotNull();
            long delayMs = (stalled.nanos() - stalledAt) / 1_000_000;
            assertThat(delayMs).isLessThanOrEqualTo(STALL_BOUND.toMillis());
            assertThat(stalled.report().reasons()).anySatisfy(reason -> assertThat(reason).startsWith("writes stalled:"));
            assertThat(stalled.report().metrics()).containsKeys(EngineMetric.ROCKSDB_STALL_STOPS.metricName(),
                    EngineMetric.ROCKSDB_STALL_MICROS.metricName(), EngineMetric.ROCKSDB_IMMUTABLE_MEMTABLES.metricName());

            long writeEnd = writer.get(60, TimeUnit.SECONDS);
            Reports.Arrival ok = rocksdbReports.await(writeEnd, r -> r.state() == HealthState.OK, Duration.ofSeconds(30));
            assertThat(ok).as("OK after the writes: " + rocksdbReports.last()).isNotNull();

            Map<String, Long> after = stallCounters();
            Map<String, Long> grown = new LinkedHashMap<>();
            after.forEach((name, value) -> {
                if (value > before.get(name)) {
                    grown.put(name, value - before.get(name));
                }
            });
            measurements.add(String.format("MyRocks: 12 MB written in %.1f s; first stall %.2f s after the first write;"
                            + " STALLED reported %d ms after the first stall (bound %d ms); OK %d ms after the last write;"
                            + " counters grown: %s", (writeEnd - writeStart) / 1e9, (stalledAt - writeStart) / 1e9,
                    delayMs, STALL_BOUND.toMillis(), (ok.nanos() - writeEnd) / 1_000_000, grown));
            measurements.add("MyRocks reports from the first write: " + rocksdbReports.timeline(writeStart, ok.nanos()));
            measurements.add("MyRocks reports with a 200 ms status timeout: " + impatientReports.timeline(writeStart, ok.nanos()));
            assertThat(rocksdbReports.any(writeStart, ok.nanos(), r -> r.state() == HealthState.FAILED))
                    .as("never FAILED while stalled").isFalse();
            assertThat(impatientReports.any(writeStart, ok.nanos(), r -> r.state() == HealthState.FAILED))
                    .as("never FAILED while stalled, even with a short status timeout").isFalse();
            assertThat(impatientReports.any(writeStart, ok.nanos(), r -> r.reasons().stream()
                    .anyMatch(reason -> reason.startsWith("writes stopped: the stall counters did not answer"))))
                    .as("a status read that waits is reported as a stall").isTrue();
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    @Order(2)
    void anInnoDbReadViewUnderWritesIsDegradedUntilItCloses() throws Exception {
        innodb.execute("CREATE DATABASE hl", "CREATE TABLE hl.t (id INT PRIMARY KEY, v INT)",
                "INSERT INTO hl.t SELECT seq, 0 FROM hl.seq_1_to_100");
        long opened;
        try (Connection reader = innodb.connect(); Statement view = reader.createStatement()) {
            view.execute("START TRANSACTION WITH CONSISTENT SNAPSHOT");
            view.executeQuery("SELECT COUNT(*) FROM hl.t").close();
            opened = System.nanoTime();
            int transactions = 0;
            try (Connection writer = innodb.connect(); Statement write = writer.createStatement()) {
                while (innodbReports.await(opened, r -> r.state() == HealthState.DEGRADED, Duration.ZERO) == null
                        && transactions < 20_000) {
                    write.execute("UPDATE hl.t SET v = v + 1 WHERE id = " + (1 + transactions % 100));
                    transactions++;
                }
            }
            Reports.Arrival degraded = innodbReports.await(opened, r -> r.state() == HealthState.DEGRADED,
                    Duration.ofSeconds(5));
            assertThat(degraded).as("DEGRADED with the read view open: " + innodbReports.last()).isNotNull();
            assertThat(degraded.report().reasons()).anySatisfy(reason -> assertThat(reason).startsWith("history list length"));
            assertThat(degraded.report().metric(EngineMetric.INNODB_HISTORY_LIST_LENGTH)).isGreaterThan(HISTORY_THRESHOLD);
            measurements.add(String.format("InnoDB: DEGRADED %.1f s after the read view opened, after %d update"
                            + " transactions (history list %d, threshold %d)", (degraded.nanos() - opened) / 1e9,
                    transactions, degraded.report().metric(EngineMetric.INNODB_HISTORY_LIST_LENGTH), HISTORY_THRESHOLD));
            view.execute("COMMIT");
        }
        long closed = System.nanoTime();
        Reports.Arrival ok = innodbReports.await(closed, r -> r.state() == HealthState.OK, Duration.ofSeconds(30));
        assertThat(ok).as("OK after the read view closed: " + innodbReports.last()).isNotNull();
        measurements.add(String.format("InnoDB: OK %.1f s after the read view closed (history list %d)",
                (ok.nanos() - closed) / 1e9, ok.report().metric(EngineMetric.INNODB_HISTORY_LIST_LENGTH)));
    }

    @Test
    @Order(3)
    void aKilledServerIsFailed() {
        long killed = System.nanoTime();
        innodb.kill();
        Reports.Arrival failed = innodbReports.await(killed, r -> r.state() == HealthState.FAILED, Duration.ofSeconds(5));
        assertThat(failed).as("FAILED after SIGKILL: " + innodbReports.last()).isNotNull();
        assertThat(failed.report().reasons()).singleElement().satisfies(reason -> assertThat(reason).startsWith("unreachable: "));
        assertThat(failed.report().metrics()).isEmpty();
        measurements.add(String.format("InnoDB killed: FAILED after %d ms (%s)", (failed.nanos() - killed) / 1_000_000,
                failed.report().reasons().get(0)));

        innodb.restart();
        long restarted = System.nanoTime();
        Reports.Arrival ok = innodbReports.await(restarted, r -> r.state() == HealthState.OK, Duration.ofSeconds(30));
        assertThat(ok).as("OK after restart: " + innodbReports.last()).isNotNull();
        measurements.add(String.format("InnoDB restarted: OK %d ms after the server accepted connections",
                (ok.nanos() - restarted) / 1_000_000));
    }

    private Map<String, Long> stallCounters() throws SQLException {
        Map<String, Long> counters = new LinkedHashMap<>();
        try (Connection connection = rocksdb.connect(); Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SHOW GLOBAL STATUS LIKE 'Rocksdb\\_stall\\_%'")) {
            while (rows.next()) {
                counters.put(rows.getString(1), rows.getLong(2));
            }
        }
        return counters;
    }
}
