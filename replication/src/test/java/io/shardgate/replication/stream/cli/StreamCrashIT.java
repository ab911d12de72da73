package io.shardgate.replication.stream.cli;

import io.shardgate.replication.topology.Node;
import io.shardgate.replication.topology.Topology;
import io.shardgate.replication.topology.TopologySpec;
import io.shardgate.storage.Engine;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import static io.shardgate.replication.stream.TableComparison.assertSameTable;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The stream command as a child JVM, SIGKILLed five times at a random moment (0 to 2 s after it
 * has applied something) while it applies a steady write load, and started again each time: the target ends identical to the source, with no duplicate key and no missing row.
 * Then SIGTERM: the command stops at a transaction boundary and prints its summary.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class StreamCrashIT {
    private static final int SCHEMAS = 3;
    private static final int KILLS = 5;

    private Topology topology;
    private Node source;
    private Node target;
    private Path logs;

    @BeforeAll
    void start() throws IOException {
        topology = Topology.start(TopologySpec.builder()
                .shard("src", Engine.INNODB, 0)
                .shard("dst", Engine.INNODB, 0)
                .serverOption("binlog_row_metadata", "FULL")
                .build());
        source = topology.shard("src").primary();
        target = topology.shard("dst").primary();
        logs = Files.createTempDirectory("stream-crash-it");
        for (int s = 0; s < SCHEMAS; s++) {
            source.execute("CREATE DATABASE c" + s,
                    "CREATE TABLE c" + s + ".t (id INT PRIMARY KEY, v BIGINT NOT NULL, pad VARCHAR(100))");
        }
    }

    @AfterAll
    void stop() throws IOException {
        if (topology != null) {
            topology.close();
        }
        if (logs != null) {
            try (var files = Files.list(logs)) {
                for (Path file : files.toList()) {
                    Files.deleteIfExists(file);
                }
            }
            Files.deleteIfExists(logs);
        }
    }

    private Process launch(String name, String... extra) throws IOException {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-cp", System.getProperty("java.class.path"), StreamCommandMain.class.getName(),
                "--source", source.address(), "--target", target.address(),
                "--user", topology.accounts().user(), "--password", topology.accounts().password(),
                "--workers", "3", "--progress-seconds", "1"));
        command.addAll(List.of(extra));
        return new ProcessBuilder(command)
                .redirectOutput(logs.resolve(name + ".out").toFile())
                .redirectError(logs.resolve(name + ".err").toFile())
                .start();
    }

    private String log(String name) throws IOException {
        File file = logs.resolve(name).toFile();
        return file.exists() ? Files.readString(file.toPath(), StandardCharsets.UTF_8) : "";
    }

    private long applied() {
        String count = target.queryString("SELECT IFNULL(SUM(seq), 0) FROM _shardgate.apply_position WHERE schema_name <> ''");
        return count == null ? 0 : Long.parseLong(count);
    }

    /** Waits until the target's stored positions moved past {@code than}. */
    private void awaitProgress(long than, Process process, String name) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            assertThat(process.isAlive()).as("stream " + name + " exited early: " + log(name + ".err")).isTrue();
            try {
                if (applied() > than) {
                    return;
                }
            } catch (RuntimeException e) {
                // The position table does not exist yet.
            }
            TimeUnit.MILLISECONDS.sleep(50);
        }
        throw new AssertionError("stream " + name + " applied nothing within 60 s: " + log(name + ".err"));
    }

    @Test
    void killedAndRestartedStreamLeavesIdenticalTablesThenSigtermStopsCleanly() throws Exception {
        AtomicBoolean writing = new AtomicBoolean(true);
        AtomicReference<Throwable> writerFailure = new AtomicReference<>();
        Thread writer = new Thread(() -> {
            int id = 0;
            try {
                while (writing.get()) {
                    id++;
                    String schema = "c" + (id % SCHEMAS);
                    String other = "c" + ((id + 1) % SCHEMAS);
                    if (id % 7 == 0) {
                        source.execute("BEGIN", "INSERT INTO " + schema + ".t VALUES (" + id + ", 1, 'two')",
                                "UPDATE " + other + ".t SET v = v + 1 ORDER BY id DESC LIMIT 3", "COMMIT");
                    } else if (id % 11 == 0) {
                        source.execute("DELETE FROM " + other + ".t ORDER BY id LIMIT 1");
                    } else {
                        source.execute("BEGIN", "INSERT INTO " + schema + ".t VALUES (" + id + ", 0, REPEAT('x', " + (id % 100) + "))",
                                "UPDATE " + schema + ".t SET v = v + " + id + " WHERE id = " + (id - SCHEMAS), "COMMIT");
                    }
                }
            } catch (Throwable e) {
                writerFailure.set(e);
            }
        }, "crash-it-writer");
        writer.start();
        try {
            long seen = 0;
            long seed = System.nanoTime();
            Random random = new Random(seed);
            for (int round = 1; round <= KILLS; round++) {
                String name = "kill" + round;
                Process stream = launch(name);
                awaitProgress(seen, stream, name);
                long delay = random.nextInt(2000);
                System.out.printf("StreamCrashIT: kill %d of %d %d ms after progress (seed %d)%n", round, KILLS, delay, seed);
                TimeUnit.MILLISECONDS.sleep(delay);
                stream.destroyForcibly();
                assertThat(stream.waitFor(30, TimeUnit.SECONDS)).isTrue();
                seen = applied();
            }
        } finally {
            writing.set(false);
            writer.join(30_000);
        }
        assertThat(writerFailure.get()).isNull();

        Process last = launch("final", "--until-gtid", source.gtidBinlogPos());
        assertThat(last.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(last.exitValue()).as(log("final.err")).isZero();
        for (int s = 0; s < SCHEMAS; s++) {
            assertSameTable(source, target, "c" + s + ".t", "id");
        }

        source.execute("INSERT INTO c0.t VALUES (-1, 5, 'before sigterm')");
        Process term = launch("term");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while ((!"1".equals(target.queryString("SELECT COUNT(*) FROM c0.t WHERE id = -1")) || !log("term.err").contains("tx/s"))
                && System.nanoTime() < deadline) {
            assertThat(term.isAlive()).as(log("term.err")).isTrue();
            TimeUnit.MILLISECONDS.sleep(50);
        }
        term.destroy();
        assertThat(term.waitFor(60, TimeUnit.SECONDS)).isTrue();
        String out = log("term.out").strip();
        assertThat(out.substring(out.lastIndexOf('\n') + 1)).startsWith("{\"transactions\":")
                .contains("\"0\":\"" + source.gtidBinlogPos() + "\"");
        assertThat(target.queryString("SELECT CONCAT(domain_id, '-', server_id, '-', seq) FROM _shardgate.apply_position"
                + " WHERE schema_name = ''")).isEqualTo(source.gtidBinlogPos());
        assertThat(log("term.err")).contains("tx/s").contains("rows/s").contains("lag").doesNotContain("INFO:");
    }
}
