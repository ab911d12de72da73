package io.shardgate.replication.stream;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.shardgate.replication.gtid.MariaDbGtidPosition;
import io.shardgate.replication.topology.Node;
import io.shardgate.storage.Engine;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.io.File;
import java.nio.file.Files;
import java.util.Map;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static io.shardgate.replication.stream.TableComparison.assertSameTable;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * sysbench {@code oltp_write_only} on four schemas of the source, 4 threads each for 60 s, while
 * the stream applies them on four workers; then a run with {@code untilGtid} set to the source's
 * last transaction continues from the stored position, and every table is identical (rows and
 * {@code CHECKSUM TABLE}). Prints the stream's throughput.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SysbenchStreamIT {
    private static final int SCHEMAS = 4;
    private static final int THREADS = 4;
    private static final int LOAD_SECONDS = 60;
    private static final int TABLE_SIZE = 10_000;

    private StreamPair pair;
    private Node source;
    private Node target;

    @BeforeAll
    void start() {
        pair = StreamPair.start(Engine.INNODB, Map.of());
        source = pair.source();
        target = pair.target();
        for (int s = 0; s < SCHEMAS; s++) {
            source.execute("CREATE DATABASE sb" + s);
        }
    }

    @AfterAll
    void stop() {
        if (pair != null) {
            pair.close();
        }
    }

    private Process sysbench(int schema, String command, File log) throws Exception {
        return new ProcessBuilder("sysbench", "oltp_write_only", "--mysql-host=127.0.0.1",
                "--mysql-port=" + source.port(), "--mysql-user=" + pair.topology().accounts().user(),
                "--mysql-password=" + pair.topology().accounts().password(), "--mysql-db=sb" + schema, "--tables=1",
                "--table-size=" + TABLE_SIZE, "--threads=" + THREADS, "--time=" + LOAD_SECONDS, "--report-interval=0",
                command)
                .redirectErrorStream(true).redirectOutput(log).start();
    }

    private void runAll(String command) throws Exception {
        List<Process> processes = new ArrayList<>();
        List<File> logs = new ArrayList<>();
        for (int s = 0; s < SCHEMAS; s++) {
            File log = File.createTempFile("sysbench-" + command + "-" + s, ".log");
            log.deleteOnExit();
            logs.add(log);
            processes.add(sysbench(s, command, log));
        }
        for (int s = 0; s < SCHEMAS; s++) {
            assertThat(processes.get(s).waitFor(LOAD_SECONDS + 120, TimeUnit.SECONDS)).isTrue();
            assertThat(processes.get(s).exitValue()).as(Files.readString(logs.get(s).toPath())).isZero();
            Files.deleteIfExists(logs.get(s).toPath());
        }
    }

    private ChangeStream.Builder stream(SimpleMeterRegistry registry) {
        return pair.builder()
                .registry(registry)
                .workers(4);
    }

    @Test
    void writeLoadOnFourSchemasArrivesIdentical() throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        ChangeStream following = stream(registry).build();
        ExecutorService runner = Executors.newSingleThreadExecutor();
        MariaDbGtidPosition end;
        try {
            Future<ChangeStream.Result> running = runner.submit(following::run);
            long loadStart = System.nanoTime();
            runAll("prepare");
            runAll("run");
            double loadSeconds = (System.nanoTime() - loadStart) / 1e9;
            end = MariaDbGtidPosition.parse(source.gtidBinlogPos());
            MariaDbGtidPosition behind = following.progress().applied();
            following.stop();
            ChangeStream.Result during = running.get(120, TimeUnit.SECONDS);
            System.out.printf("sysbench stream: while loading, %d transactions, %d rows in %.1f s (%.0f tx/s);"
                            + " load took %.1f s; applied %s of %s when the load ended; %d binlog events%n",
                    during.transactions(), during.rows(), during.elapsed().toMillis() / 1000.0,
                    during.transactions() / (during.elapsed().toMillis() / 1000.0), loadSeconds, behind, end,
                    (long) registry.counter("shardgate.stream.events.read").count());

            // A second run continues from the target's stored position up to the source's last transaction.
            ChangeStream finishing = stream(new SimpleMeterRegistry()).untilGtid(end).build();
            ChangeStream.Result rest = runner.submit(finishing::run).get(300, TimeUnit.SECONDS);
            assertThat(rest.applied().hasReached(end)).as(rest.applied() + " reaches " + end).isTrue();
            System.out.printf("sysbench stream: --until-gtid %s applied the remaining %d transactions in %.1f s%n",
                    end, rest.transactions(), rest.elapsed().toMillis() / 1000.0);
            assertThat(during.transactions() + rest.transactions()).isGreaterThan(1000);
        } finally {
            runner.shutdownNow();
        }
        for (int s = 0; s < SCHEMAS; s++) {
            assertSameTable(source, target, "sb" + s + ".sbtest1", "id");
        }
    }
}
