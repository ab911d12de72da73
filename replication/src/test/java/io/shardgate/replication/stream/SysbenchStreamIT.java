package io.shardgate.replication.stream;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.shardgate.replication.gtid.MariaDbGtidPosition;
import io.shardgate.replication.topology.Node;
import io.shardgate.replication.topology.Topology;
import io.shardgate.replication.topology.TopologySpec;
import io.shardgate.storage.Engine;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.io.File;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static io.shardgate.replication.stream.TableComparison.assertSameTable;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * sysbench {@code oltp_write_only} on four schemas of the source while the stream applies them
 * on four workers; afterwards every table is identical. Prints the stream's throughput.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SysbenchStreamIT {
    private static final int SCHEMAS = 4;

    private Topology topology;
    private Node source;
    private Node target;

    @BeforeAll
    void start() {
        topology = Topology.start(TopologySpec.builder()
                .shard("src", Engine.INNODB, 0)
                .shard("dst", Engine.INNODB, 0)
                .serverOption("binlog_row_metadata", "FULL")
                .build());
        source = topology.shard("src").primary();
        target = topology.shard("dst").primary();
        for (int s = 0; s < SCHEMAS; s++) {
            source.execute("CREATE DATABASE sb" + s);
        }
    }

    @AfterAll
    void stop() {
        if (topology != null) {
            topology.close();
        }
    }

    private Process sysbench(int schema, String command, File log) throws Exception {
        return new ProcessBuilder("sysbench", "oltp_write_only", "--mysql-host=127.0.0.1",
                "--mysql-port=" + source.port(), "--mysql-user=" + topology.accounts().user(),
                "--mysql-password=" + topology.accounts().password(), "--mysql-db=sb" + schema, "--tables=1",
                "--table-size=1000", "--threads=2", "--time=20", "--report-interval=0", command)
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
            assertThat(processes.get(s).waitFor(120, TimeUnit.SECONDS)).isTrue();
            assertThat(processes.get(s).exitValue()).as(Files.readString(logs.get(s).toPath())).isZero();
            Files.deleteIfExists(logs.get(s).toPath());
        }
    }

    @Test
    void writeLoadOnFourSchemasArrivesIdentical() throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        ChangeStream stream = ChangeStream.builder()
                .source(new ServerEndpoint(source.host(), source.port(), topology.accounts().user(), topology.accounts().password()))
                .target(new ServerEndpoint(target.host(), target.port(), topology.accounts().user(), topology.accounts().password()))
                .registry(registry)
                .workers(4)
                .build();
        ExecutorService runner = Executors.newSingleThreadExecutor();
        ChangeStream.Result result;
        long loadStart = System.nanoTime();
        try {
            Future<ChangeStream.Result> running = runner.submit(stream::run);
            runAll("prepare");
            runAll("run");
            double loadSeconds = (System.nanoTime() - loadStart) / 1e9;
            MariaDbGtidPosition end = MariaDbGtidPosition.parse(source.gtidBinlogPos());
            long catchUpStart = System.nanoTime();
            long deadline = catchUpStart + TimeUnit.SECONDS.toNanos(120);
            while (!stream.progress().applied().hasReached(end) && System.nanoTime() < deadline && !running.isDone()) {
                TimeUnit.MILLISECONDS.sleep(50);
            }
            double catchUp = (System.nanoTime() - catchUpStart) / 1e9;
            stream.stop();
            result = running.get(60, TimeUnit.SECONDS);
            assertThat(result.applied().hasReached(end)).as(result.applied() + " reaches " + end).isTrue();
            System.out.printf("sysbench stream: %d transactions, %d rows in %.1f s (%.0f tx/s, %.0f rows/s);"
                            + " load took %.1f s, catch-up after load %.1f s, %d binlog events%n",
                    result.transactions(), result.rows(), result.elapsed().toMillis() / 1000.0,
                    result.transactions() / (result.elapsed().toMillis() / 1000.0),
                    result.rows() / (result.elapsed().toMillis() / 1000.0), loadSeconds, catchUp,
                    (long) registry.counter("shardgate.stream.events.read").count());
        } finally {
            runner.shutdownNow();
        }
        assertThat(result.transactions()).isGreaterThan(100);
        for (int s = 0; s < SCHEMAS; s++) {
            assertSameTable(source, target, "sb" + s + ".sbtest1", "id");
        }
    }
}
