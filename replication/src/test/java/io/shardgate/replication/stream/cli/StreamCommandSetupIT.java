package io.shardgate.replication.stream.cli;

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

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The stream command against a source set up wrongly: each refusal is exit code 1 and one line
 * that names the problem. The source does not log row metadata, so names come from the stream's
 * schema history here. The purge test runs last: it removes the source's history.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class StreamCommandSetupIT {
    private Topology topology;
    private Node source;
    private Node target;

    @BeforeAll
    void start() {
        topology = Topology.start(TopologySpec.builder()
                .shard("src", Engine.INNODB, 0)
                .shard("dst", Engine.INNODB, 0)
                .build());
        source = topology.shard("src").primary();
        target = topology.shard("dst").primary();
        source.execute("CREATE DATABASE app", "CREATE TABLE app.t (id INT PRIMARY KEY, v VARCHAR(10))",
                "INSERT INTO app.t VALUES (1, 'a'), (2, 'b')",
                "CREATE TABLE app.gen (id INT PRIMARY KEY, v INT, twice INT AS (v * 2) VIRTUAL, next INT AS (v + 1) STORED)",
                "INSERT INTO app.gen (id, v) VALUES (1, 10), (2, 20)", "UPDATE app.gen SET v = 11 WHERE id = 1");
    }

    @AfterAll
    void stop() {
        if (topology != null) {
            topology.close();
        }
    }

    private record Run(int code, String out, String err) {
        String lastErrLine() {
            String[] lines = err.strip().split("\n");
            return lines[lines.length - 1];
        }
    }

    private Run stream(String... extra) {
        List<String> args = new ArrayList<>(List.of("--source", source.address(), "--target", target.address(),
                "--user", topology.accounts().user(), "--password", topology.accounts().password(),
                "--progress-seconds", "1"));
        args.addAll(List.of(extra));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = new StreamCommand().run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    @Order(1)
    void freshTargetWithoutMetadataStreamsToUntilAndPrintsJsonSummary() {
        Run run = stream("--until-gtid", source.gtidBinlogPos(), "--workers", "2");

        assertThat(run.code()).as(run.err()).isZero();
        String[] lines = run.out().strip().split("\n");
        assertThat(lines[lines.length - 1]).startsWith("{\"transactions\":").contains("\"rows\":5")
                .contains("\"gtid\":{\"0\":\"" + source.gtidBinlogPos() + "\"}");
        assertThat(run.err()).contains("binlog_row_metadata=NO_LOG");
        assertThat(target.queryString("SELECT GROUP_CONCAT(v ORDER BY id) FROM app.t")).isEqualTo("a,b");
        assertThat(target.queryString("SELECT GROUP_CONCAT(CONCAT_WS(':', id, v, twice, next) ORDER BY id) FROM app.gen"))
                .isEqualTo("1:11:22:12,2:20:40:21");
    }

    @Test
    @Order(2)
    void statementFormatIsRefused() {
        source.execute("SET GLOBAL binlog_format = 'STATEMENT'");
        try {
            Run run = stream("--until-gtid", source.gtidBinlogPos());
            assertThat(run.code()).isEqualTo(1);
            assertThat(run.lastErrLine()).contains("binlog_format=STATEMENT").contains("needs ROW");
        } finally {
            source.execute("SET GLOBAL binlog_format = 'ROW'");
        }
    }

    @Test
    @Order(3)
    void minimalRowImageAndCompressedBinlogAreRefused() {
        source.execute("SET GLOBAL binlog_row_image = 'MINIMAL'");
        try {
            assertThat(stream().lastErrLine()).contains("binlog_row_image=MINIMAL");
        } finally {
            source.execute("SET GLOBAL binlog_row_image = 'FULL'");
        }
        source.execute("SET GLOBAL log_bin_compress = ON");
        try {
            assertThat(stream().lastErrLine()).contains("log_bin_compress=ON");
        } finally {
            source.execute("SET GLOBAL log_bin_compress = OFF");
        }
    }

    @Test
    @Order(4)
    void tableWithoutPrimaryKeyIsNamed() {
        source.execute("CREATE TABLE app.nokey (v INT)");
        try {
            Run run = stream();
            assertThat(run.code()).isEqualTo(1);
            assertThat(run.lastErrLine()).contains("table app.nokey has no primary key");
            // Excluding the schema that holds it lets the stream start.
            assertThat(stream("--schemas", "other", "--until-gtid", source.gtidBinlogPos()).code()).isZero();
        } finally {
            source.execute("DROP TABLE app.nokey");
        }
    }

    @Test
    @Order(5)
    void positionNeverWrittenIsRefused() {
        Run run = stream("--from-gtid", "0-1-999999");
        assertThat(run.code()).isEqualTo(1);
        assertThat(run.lastErrLine()).contains("0-1-999999").contains("never written");
        assertThat(stream("--from-gtid", "7-1-3").lastErrLine()).contains("never written");
    }

    @Test
    @Order(6)
    void badArgumentsGiveUsage() {
        Run run = stream("--workers", "0");
        assertThat(run.code()).isEqualTo(2);
        assertThat(run.err()).contains("--workers must be at least 1").contains("usage: stream");
        assertThat(new StreamCommand().run(List.of("--source", "x"), System.out,
                new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8))).isEqualTo(2);
    }

    @Test
    @Order(6)
    void withoutRowMetadataABacklogSpanningDdlStreamsWithTheSchemaHistory() {
        source.execute("CREATE DATABASE hist", "CREATE TABLE hist.t (id INT PRIMARY KEY, a VARCHAR(10), b INT UNSIGNED)",
                "INSERT INTO hist.t VALUES (1, 'one', 4000000000), (2, 'two', 2)");
        try {
            assertThat(stream("--until-gtid", source.gtidBinlogPos()).code()).isZero();
            source.execute("INSERT INTO hist.t VALUES (3, 'three', 3)", "ALTER TABLE hist.t ADD COLUMN c INT",
                    "INSERT INTO hist.t VALUES (4, 'four', 4, 44)", "ALTER TABLE hist.t DROP COLUMN a",
                    "ALTER TABLE hist.t RENAME COLUMN c TO d", "UPDATE hist.t SET d = id, b = b + 1 WHERE id IN (1, 3)",
                    "DELETE FROM hist.t WHERE id = 2");
            Run run = stream("--until-gtid", source.gtidBinlogPos());
            assertThat(run.code()).as(run.err()).isZero();
            assertThat(run.err()).contains("schema history");
            String rows = "SELECT GROUP_CONCAT(CONCAT_WS(':', id, b, d) ORDER BY id) FROM hist.t";
            assertThat(target.queryString(rows)).isEqualTo(source.queryString(rows)).isEqualTo("1:4000000001:1,3:4:3,4:4:44");
        } finally {
            source.execute("DROP DATABASE hist");
            assertThat(stream("--until-gtid", source.gtidBinlogPos()).code()).isZero();
        }
    }

    @Test
    @Order(7)
    void withoutRowMetadataAStreamBehindAnAlterStopsAndSaysWhy() {
        // The schema history follows ADD COLUMN, but not a clause its parser does not read (IF NOT EXISTS).
        source.execute("CREATE DATABASE lag", "CREATE TABLE lag.t (id INT PRIMARY KEY, v INT)",
                "ALTER TABLE lag.t ADD COLUMN IF NOT EXISTS v INT",
                "INSERT INTO lag.t VALUES (1, 1)", "ALTER TABLE lag.t ADD COLUMN w INT");
        try {
            // Past a DDL the history cannot follow, lag.t's first row is read with today's three columns: it had two.
            Run run = stream("--schemas", "lag", "--until-gtid", source.gtidBinlogPos());
            assertThat(run.code()).isEqualTo(1);
            assertThat(run.lastErrLine()).contains("lag.t has 3 columns on the source now but the binlog row has 2")
                    .contains("binlog_row_metadata=FULL");
        } finally {
            source.execute("DROP DATABASE lag");
            target.execute("DROP DATABASE IF EXISTS lag");
        }
    }

    @Test
    @Order(8)
    void purgedStartPositionIsRefused() {
        String before = source.gtidBinlogPos();
        source.execute("INSERT INTO app.t VALUES (3, 'c')", "FLUSH BINARY LOGS", "INSERT INTO app.t VALUES (4, 'd')");
        String current = currentBinlog();
        // A file a binlog dump thread still reads (a stream of an earlier test, not yet gone on the server) is not purged:
        // purge again until the oldest binlog is the current one.
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(30);
        do {
            source.execute("PURGE BINARY LOGS TO '" + current + "'");
        } while (!oldestBinlog().equals(current) && System.nanoTime() < deadline && pause());
        assertThat(oldestBinlog()).as("the older binlogs are purged").isEqualTo(current);

        // With an end, so that a start the check wrongly let through ends the run instead of hanging it.
        Run run = stream("--from-gtid", before, "--until-gtid", source.gtidBinlogPos());
        assertThat(run.code()).isEqualTo(1);
        assertThat(run.lastErrLine()).contains(before).contains("no longer in the binlog").contains(current);
    }

    private String oldestBinlog() {
        try (var connection = source.connect(); var statement = connection.createStatement();
             var rows = statement.executeQuery("SHOW BINARY LOGS")) {
            rows.next();
            return rows.getString(1);
        } catch (java.sql.SQLException e) {
            throw new AssertionError(e);
        }
    }

    private static boolean pause() {
        try {
            Thread.sleep(100);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private String currentBinlog() {
        try (var connection = source.connect(); var statement = connection.createStatement();
             var rows = statement.executeQuery("SHOW MASTER STATUS")) {
            rows.next();
            return rows.getString(1);
        } catch (java.sql.SQLException e) {
            throw new AssertionError(e);
        }
    }
}
