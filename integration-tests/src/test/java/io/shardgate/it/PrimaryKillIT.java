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

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;

import static io.shardgate.it.ShopData.firstKeyOn;
import static io.shardgate.it.ShopData.shardOf;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Never acknowledge an unconfirmed write (issue 9, item 5): the s1 primary (MyRocks) is killed
 * with SIGKILL while clients write through Shardgate to a table sharded over s0 (InnoDB) and s1,
 * then started again on the same datadir, so that crash recovery runs.
 *
 * <p>Writers (MariaDB Connector/J) run autocommit single-row INSERTs of unique ids, and explicit
 * transactions that insert one row on each shard (two-phase commit). Every write ends as ACKED
 * (the client got OK), ERR (an ERR packet, with its errno) or UNKNOWN (an exception without an
 * errno: a dropped connection or the client's socket timeout, that is a hang). After the restart:
 * every ACKED row is on its shard, no write ended UNKNOWN, the writes to s1 that were under way at
 * the kill got an ERR or an OK whose row survived, a write that Shardgate reported as never sent
 * (1429) is absent, s0 kept taking writes during the outage, and the same proxy writes to s1 again.
 * Counts are printed with the prefix {@code [primary-kill-it]}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class PrimaryKillIT {
    private static final String CONFIG = """
            schemas:
              - name: pk
                tables:
                  w: { shard_key: id, vindex: hash }
                  sbtest1: { shard_key: id, vindex: hash }
            transactions: { cross_shard: xa }
            limits: { backend_connect_timeout_ms: 500 }
            """;
    private static final int AUTOCOMMIT_WRITERS = 4;
    private static final int TRANSACTION_WRITERS = 2;
    /** Writes to s1 acknowledged before the kill, so that it hits a steady stream. */
    private static final int ACKED_BEFORE_KILL = 300;
    /** The client's socket timeout: a statement that gets no answer in this time counts as a hang. */
    private static final int SOCKET_TIMEOUT_MS = 20_000;
    /** Errors that say the write was not sent to the shard: such a row must be absent. */
    private static final Set<Integer> NEVER_SENT = Set.of(1429);
    /** What a write to the killed primary may get instead of an OK (docs/errors.md). */
    private static final Set<Integer> OUTAGE_ERRORS = Set.of(1927, 1429, 1402);

    private Topology topology;
    private ProxyFixture proxy;

    @BeforeAll
    void start() throws SQLException {
        // A sysbench thread that fails with the shard gone leaves its transaction (and its row locks on
        // s0) open, as it would on a single server; a short lock wait lets the other threads see the outage.
        topology = Topology.start(TopologySpec.builder()
                .shard("s0", Engine.INNODB, 0)
                .shard("s1", Engine.ROCKSDB, 0)
                .serverOption("innodb_lock_wait_timeout", "3")
                .build());
        for (String shard : List.of("s0", "s1")) {
            topology.shard(shard).primary().execute("CREATE DATABASE pk");
        }
        proxy = ProxyFixture.start(topology, ProxyFixture.HALVES, CONFIG);
        try (Connection c = proxy.mariadb("pk", ""); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE w (id BIGINT PRIMARY KEY, writer INT NOT NULL)");
        }
    }

    @AfterAll
    void stop() {
        ProxyFixture.stop(proxy, topology);
    }

    @Test
    @Order(1)
    void acknowledgedWritesSurviveAPrimaryKillAndWritesInFlightGetAnError() throws Exception {
        Node s1 = topology.shard("s1").primary();
        ConcurrentLinkedQueue<Write> writes = new ConcurrentLinkedQueue<>();
        AtomicBoolean running = new AtomicBoolean(true);
        ExecutorService clients = Executors.newFixedThreadPool(AUTOCOMMIT_WRITERS + TRANSACTION_WRITERS);
        List<Future<?>> done = new ArrayList<>();
        try {
            for (int w = 0; w < AUTOCOMMIT_WRITERS; w++) {
                int writer = w;
                done.add(clients.submit(() -> autocommitWriter(writer, running, writes)));
            }
            for (int w = 0; w < TRANSACTION_WRITERS; w++) {
                int writer = AUTOCOMMIT_WRITERS + w;
                done.add(clients.submit(() -> transactionWriter(writer, running, writes)));
            }
            awaitCondition("every writer had writes to s1 acknowledged, " + ACKED_BEFORE_KILL + " in all, before the kill",
                    Duration.ofSeconds(60),
                    () -> writersWithAckedWritesOn("s1", writes, Long.MIN_VALUE) == AUTOCOMMIT_WRITERS + TRANSACTION_WRITERS
                            && writes.stream().filter(w -> w.shard.equals("s1") && w.outcome == Outcome.ACKED).count() >= ACKED_BEFORE_KILL);

            long killedAt = System.nanoTime();
            s1.kill();
            awaitCondition("s1 writes fail and s0 writes succeed while s1 is down", Duration.ofSeconds(30),
                    () -> writes.stream().anyMatch(w -> w.shard.equals("s1") && w.started > killedAt && w.outcome == Outcome.ERR)
                            && writes.stream().anyMatch(w -> w.shard.equals("s0") && w.started > killedAt && w.outcome == Outcome.ACKED));
            long restartedAt = System.nanoTime();
            s1.restart();
            awaitCondition("every writer has its writes to s1 acknowledged again after the restart", Duration.ofSeconds(60),
                    () -> writersWithAckedWritesOn("s1", writes, restartedAt)
                            == AUTOCOMMIT_WRITERS + TRANSACTION_WRITERS);
        } finally {
            running.set(false);
            clients.shutdown();
        }
        for (Future<?> each : done) {
            each.get(SOCKET_TIMEOUT_MS * 2L, TimeUnit.MILLISECONDS);
        }
        assertThat(clients.awaitTermination(10, TimeUnit.SECONDS)).isTrue();

        // Two-phase commits decided while s1 was down are finished by XA recovery (every 10 s).
        for (String shard : List.of("s0", "s1")) {
            Node primary = topology.shard(shard).primary();
            awaitCondition("no XA branch left prepared on " + shard, Duration.ofSeconds(40),
                    () -> primary.queryString("XA RECOVER") == null);
        }
        Set<Long> present = new HashSet<>();
        present.addAll(ids("s0"));
        present.addAll(ids("s1"));

        List<Write> all = new ArrayList<>(writes);
        Map<String, Integer> tally = new TreeMap<>();
        all.forEach(w -> tally.merge(w.shard + " " + w.outcome + (w.outcome == Outcome.ERR ? " " + w.errno : ""), 1, Integer::sum));
        System.out.println("[primary-kill-it] writes by shard and outcome: " + tally);

        assertThat(all.stream().filter(w -> w.outcome == Outcome.ACKED && !present.contains(w.id)).toList())
                .as("writes acknowledged to the client whose rows are missing after the restart").isEmpty();
        assertThat(all.stream().filter(w -> w.outcome == Outcome.UNKNOWN).toList())
                .as("writes that got neither OK nor ERR (a dropped client connection or no answer within %d ms)", SOCKET_TIMEOUT_MS)
                .isEmpty();
        assertThat(all.stream().filter(w -> w.outcome == Outcome.ERR && NEVER_SENT.contains(w.errno) && present.contains(w.id)).toList())
                .as("writes refused as never sent (1429) whose rows exist anyway").isEmpty();
        assertThat(all.stream().filter(w -> w.outcome == Outcome.ERR && w.shard.equals("s1") && !OUTAGE_ERRORS.contains(w.errno)).toList())
                .as("writes to s1 that failed with something other than the documented outage errors %s", OUTAGE_ERRORS).isEmpty();
        assertThat(all.stream().filter(w -> w.shard.equals("s1") && w.outcome == Outcome.ERR && w.errno == 1927).count()
                + all.stream().filter(w -> w.shard.equals("s1") && w.outcome == Outcome.ERR && w.errno == 1429).count())
                .as("writes to s1 that got 1927 (outcome unknown) or 1429 (not sent) during the outage").isPositive();
        assertThat(all.stream().filter(w -> w.outcome == Outcome.ACKED).count()).isGreaterThan(2L * ACKED_BEFORE_KILL);
    }

    /**
     * sysbench oltp_write_only through Shardgate (transactions over both shards, prepared
     * statements) while the s1 primary is killed: sysbench stops with the error it got, soon after
     * the kill, instead of hanging; after the restart the same proxy writes to s1 again. The errno
     * is not asserted: it is 2027 today (see the comment below).
     */
    @Test
    @Order(2)
    void sysbenchWriteRunEndsWithAnErrorWhenAShardPrimaryIsKilled() throws Exception {
        Cli.Result prepare = Cli.run(sysbench("prepare"), null, 120);
        assertThat(prepare.status()).as(prepare.stdout() + prepare.stderr()).isZero();
        Path output = Files.createTempFile("primary-kill-sysbench", ".log");
        Node s1 = topology.shard("s1").primary();
        Process run = new ProcessBuilder(sysbench("run")).redirectErrorStream(true).redirectOutput(output.toFile()).start();
        try {
            awaitCondition("sysbench reports committed transactions", Duration.ofSeconds(30),
                    () -> read(output).matches("(?s).*\\] thds: 4 tps: [1-9].*"));
            s1.kill();
            long killedAt = System.nanoTime();
            assertThat(run.waitFor(30, TimeUnit.SECONDS)).as("sysbench ended within 30 s of the kill:%n%s", read(output)).isTrue();
            String log = read(output);
            System.out.printf("[primary-kill-it] sysbench ended %.1f s after the kill with status %d%n",
                    (System.nanoTime() - killedAt) / 1e9, run.exitValue());
            assertThat(run.exitValue()).as(log).isNotZero();
            // The outcome is unknown (1927), the shard cannot be reached (1429), or the XA commit rolled back (1402):
            // never a garbled reply (libmariadb read Shardgate's former ERR 2013 as 2027 "Received malformed packet").
            assertThat(log).doesNotContain("malformed").containsPattern("FATAL: .*error (1927|1429|1402)\\b");
        } finally {
            run.destroyForcibly();
            s1.restart();
            Files.deleteIfExists(output);
        }
        awaitCondition("a write to s1 through the same proxy succeeds after the restart", Duration.ofSeconds(30), () -> {
            try (Connection c = connect(); Statement s = c.createStatement()) {
                return s.executeUpdate("INSERT INTO w (id, writer) VALUES (" + firstKeyOn("s1", 90_000_000L + System.nanoTime() % 1_000_000)
                        + ", 99)") == 1;
            } catch (SQLException e) {
                return false;
            }
        });
    }

    private List<String> sysbench(String command) {
        return List.of("sysbench", "oltp_write_only", "--db-driver=mysql", "--mysql-host=127.0.0.1",
                "--mysql-port=" + proxy.port(), "--mysql-user=" + ProxyFixture.USER, "--mysql-password=" + ProxyFixture.PASSWORD,
                "--mysql-db=pk", "--tables=1", "--table-size=2000", "--auto-inc=off", "--create_secondary=off",
                "--threads=4", "--time=90", "--report-interval=1", command);
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /** Autocommit single-row INSERTs of ids {@code writer * 10^7 + n}, one after another. */
    private void autocommitWriter(int writer, AtomicBoolean running, ConcurrentLinkedQueue<Write> writes) {
        long next = writer * 10_000_000L;
        Connection connection = null;
        while (running.get()) {
            long id = next++;
            Write write = new Write(id, writer, shardOf(id), System.nanoTime());
            try {
                if (connection == null) {
                    connection = connect();
                }
                try (Statement statement = connection.createStatement()) {
                    statement.executeUpdate("INSERT INTO w (id, writer) VALUES (" + id + ", " + writer + ")");
                }
                write.end(Outcome.ACKED, 0);
            } catch (SQLException e) {
                write.end(e.getErrorCode() == 0 ? Outcome.UNKNOWN : Outcome.ERR, e.getErrorCode(), e.getMessage());
                connection = closeIfBroken(connection);
            }
            writes.add(write);
        }
        close(connection);
    }

    /**
     * Explicit transactions inserting one row on s0 and one on s1, then COMMIT; both rows take the
     * outcome of the first statement that failed, or of the COMMIT. After a failure: ROLLBACK.
     */
    private void transactionWriter(int writer, AtomicBoolean running, ConcurrentLinkedQueue<Write> writes) {
        long next = writer * 10_000_000L;
        Connection connection = null;
        while (running.get()) {
            long onS0 = firstKeyOn("s0", next);
            long onS1 = firstKeyOn("s1", next);
            next = Math.max(onS0, onS1) + 1;
            long started = System.nanoTime();
            Write first = new Write(onS0, writer, "s0", started);
            Write second = new Write(onS1, writer, "s1", started);
            try {
                if (connection == null) {
                    connection = connect();
                    connection.setAutoCommit(false);
                }
                try (Statement statement = connection.createStatement()) {
                    statement.executeUpdate("INSERT INTO w (id, writer) VALUES (" + onS0 + ", " + writer + ")");
                    statement.executeUpdate("INSERT INTO w (id, writer) VALUES (" + onS1 + ", " + writer + ")");
                }
                connection.commit();
                first.end(Outcome.ACKED, 0);
                second.end(Outcome.ACKED, 0);
            } catch (SQLException e) {
                Outcome outcome = e.getErrorCode() == 0 ? Outcome.UNKNOWN : Outcome.ERR;
                first.end(outcome, e.getErrorCode(), e.getMessage());
                second.end(outcome, e.getErrorCode(), e.getMessage());
                connection = closeIfBroken(connection);
                if (connection != null) {
                    try {
                        connection.rollback();
                    } catch (SQLException rollbackFailure) {
                        connection = closeIfBroken(connection);
                    }
                }
            }
            writes.add(first);
            writes.add(second);
        }
        close(connection);
    }

    private Connection connect() throws SQLException {
        return proxy.mariadb("pk", "socketTimeout=" + SOCKET_TIMEOUT_MS);
    }

    /** Null when the driver considers the connection gone (a new one is opened for the next write). */
    private static Connection closeIfBroken(Connection connection) {
        try {
            if (connection != null && !connection.isValid(5)) {
                close(connection);
                return null;
            }
        } catch (SQLException e) {
            close(connection);
            return null;
        }
        return connection;
    }

    private static void close(Connection connection) {
        if (connection != null) {
            try {
                connection.close();
            } catch (SQLException ignored) {
                // The connection is being dropped anyway.
            }
        }
    }

    private static long writersWithAckedWritesOn(String shard, ConcurrentLinkedQueue<Write> writes, long startedAfter) {
        return writes.stream().filter(w -> w.shard.equals(shard) && w.outcome == Outcome.ACKED && w.started > startedAfter)
                .map(w -> w.writer).distinct().count();
    }

    private List<Long> ids(String shard) throws SQLException {
        List<Long> ids = new ArrayList<>();
        try (Connection c = topology.shard(shard).primary().connect(); Statement s = c.createStatement();
             ResultSet rows = s.executeQuery("SELECT id FROM pk.w")) {
            while (rows.next()) {
                ids.add(rows.getLong(1));
            }
        }
        return ids;
    }

    private static void awaitCondition(String what, Duration timeout, BooleanSupplier condition) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within " + timeout.toSeconds() + " s: " + what);
            }
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted waiting for: " + what, e);
            }
        }
    }

    private enum Outcome { ACKED, ERR, UNKNOWN }

    /** One row a client tried to write, and what the client was told. */
    private static final class Write {
        final long id;
        final int writer;
        final String shard;
        final long started;
        volatile Outcome outcome;
        volatile int errno;
        volatile String message;

        Write(long id, int writer, String shard, long started) {
            this.id = id;
            this.writer = writer;
            this.shard = shard;
            this.started = started;
        }

        void end(Outcome outcome, int errno) {
            end(outcome, errno, null);
        }

        void end(Outcome outcome, int errno, String message) {
            this.errno = errno;
            this.message = message;
            this.outcome = outcome;
        }

        @Override
        public String toString() {
            return "id " + id + " on " + shard + " by writer " + writer + ": " + outcome
                    + (outcome == Outcome.ERR || outcome == Outcome.UNKNOWN ? " " + errno + " " + message : "");
        }
    }
}
