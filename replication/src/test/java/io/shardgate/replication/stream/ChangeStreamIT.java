package io.shardgate.replication.stream;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.shardgate.replication.gtid.MariaDbGtidPosition;
import io.shardgate.replication.topology.Node;
import io.shardgate.storage.Engine;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static io.shardgate.replication.stream.TableComparison.assertSameTable;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The change stream between two real MariaDB 10.11 primaries (the source logs full row metadata):
 * every column type, DDL mid-stream, two-schema transactions, a dropped binlog connection.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ChangeStreamIT {
    private StreamPair pair;
    private Node source;
    private Node target;
    private SimpleMeterRegistry registry;

    @BeforeAll
    void start() {
        pair = StreamPair.start(Engine.INNODB, Map.of("max_allowed_packet", "64M"));
        source = pair.source();
        target = pair.target();
    }

    @AfterAll
    void stop() {
        if (pair != null) {
            pair.close();
        }
    }

    private ChangeStream.Builder stream() {
        registry = new SimpleMeterRegistry();
        return pair.builder()
                .registry(registry)
                .workers(3);
    }

    /** Streams until the source's current end, from the target's stored position. */
    private ChangeStream.Result catchUp() throws InterruptedException {
        MariaDbGtidPosition end = MariaDbGtidPosition.parse(source.gtidBinlogPos());
        ChangeStream.Result result = stream().untilGtid(end).build().run();
        assertThat(result.applied().hasReached(end)).as("applied " + result.applied() + " reaches " + end).isTrue();
        return result;
    }

    @Test
    @Order(1)
    void everyColumnTypeArrivesIdentical() throws Exception {
        source.execute("CREATE DATABASE types",
                "CREATE TABLE types.all_types (id INT NOT NULL PRIMARY KEY,"
                        + " ti TINYINT, tiu TINYINT UNSIGNED, si SMALLINT, siu SMALLINT UNSIGNED,"
                        + " mi MEDIUMINT, miu MEDIUMINT UNSIGNED, i INT, iu INT UNSIGNED, bi BIGINT, biu BIGINT UNSIGNED,"
                        + " d DECIMAL(65,30), f FLOAT, dbl DOUBLE,"
                        + " dt DATE, tm TIME(6), dtm DATETIME(6), ts TIMESTAMP(6) NULL DEFAULT NULL, y YEAR,"
                        + " c CHAR(10) CHARACTER SET utf8mb4, vc VARCHAR(100) CHARACTER SET utf8mb4, tx TEXT CHARACTER SET utf8mb4,"
                        + " cl CHAR(10) CHARACTER SET latin1, vcl VARCHAR(100) CHARACTER SET latin1, txl TEXT CHARACTER SET latin1,"
                        + " bn BINARY(8), vb VARBINARY(100), bl BLOB, lb LONGBLOB,"
                        + " e ENUM('red','green','blue'), st SET('a','b','c','d'), bt BIT(12), j JSON, g POINT NULL)",
                "SET time_zone = '+00:00'",
                "INSERT INTO types.all_types VALUES (1, -128, 0, -32768, 0, -8388608, 0, -2147483648, 0,"
                        + " -9223372036854775808, 0, -99999999999999999999999999999999999.999999999999999999999999999999,"
                        + " -3.25e38, -1.7976931348623157e308, '1000-01-01', '00:00:00.000001', '1000-01-01 00:00:00.000000',"
                        + " '1970-01-01 00:00:01.000000', 1901, '', '', '', '', '', '', '', '', '', '', 'red', '', b'0', '[]', NULL)",
                "INSERT INTO types.all_types VALUES (2, 127, 255, 32767, 65535, 8388607, 16777215, 2147483647, 4294967295,"
                        + " 9223372036854775807, 18446744073709551615, 99999999999999999999999999999999999.999999999999999999999999999999,"
                        + " 3.25e38, 2.2250738585072014e-308, '9999-12-31', '838:59:59.000000', '9999-12-31 23:59:59.999999',"
                        + " '2038-01-19 03:14:07.999999', 2155, 'é😀', 'Grüße 𝄞 😀 日本', REPEAT('ü😀', 1000),"
                        + " 'Ünï€', CONVERT(UNHEX('8182FFE9') USING latin1), REPEAT(CONVERT(UNHEX('80FF') USING latin1), 500),"
                        + " UNHEX('00FF00FF'), UNHEX('000102FEFF'), UNHEX('DEADBEEF00'),"
                        + " REPEAT(UNHEX('00FF7F80'), 262144), 'blue', 'a,d', b'111111111111', '{\"k\":[1,2,{\"x\":\"😀\"}]}', POINT(1.5, -2.25))",
                "INSERT INTO types.all_types (id) VALUES (3)",
                // What a literal must escape: backslash, quotes, NUL, LF, CR and ^Z.
                "INSERT INTO types.all_types (id, vc, tx, vcl) VALUES (9, CHAR(97, 92, 98, 0, 39, 34, 10, 13, 26, 122 USING utf8mb4),"
                        + " CHAR(92, 92, 39, 39, 0 USING utf8mb4), CHAR(92, 39, 0, 233 USING latin1))",
                "UPDATE types.all_types SET tx = CHAR(39, 92 USING utf8mb4) WHERE id = 9",
                "INSERT INTO types.all_types (id, tm) VALUES (6, '-838:59:59.000000'), (7, '-00:00:00.500000'),"
                        + " (8, '-12:34:56.789012')",
                "INSERT INTO types.all_types VALUES (4, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 0.000000000000000000000000000001,"
                        + " 0.1, 0.1, '2024-02-29', '12:34:56.789012', '2024-02-29 12:34:56.5', '2024-02-29 12:34:56.5',"
                        + " 2024, 'x', 'y', 'z', 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'green', 'b,c', b'101', 'null', ST_GeomFromText('POINT(3 4)', 4326))",
                "UPDATE types.all_types SET vc = 'updated 😀', biu = 18446744073709551614, lb = NULL WHERE id = 4",
                "UPDATE types.all_types SET id = 5, ts = '2001-02-03 04:05:06.070809' WHERE id = 1",
                "DELETE FROM types.all_types WHERE id = 3",
                "CREATE TABLE types.zero (id INT PRIMARY KEY, d DATE, dt DATETIME(3), ts TIMESTAMP(2) NULL DEFAULT NULL)",
                "SET SESSION sql_mode = ''",
                "INSERT INTO types.zero VALUES (1, '0000-00-00', '0000-00-00 00:00:00', '0000-00-00 00:00:00'),"
                        + " (2, '1970-01-01', '1970-01-01 00:00:00', '1970-01-01 00:00:01'), (3, '2024-02-00', '2024-00-00 10:00:00', NULL)");

        ChangeStream.Result result = catchUp();

        assertSameTable(source, target, "types.all_types", "id");
        String zero = "SELECT GROUP_CONCAT(CONCAT_WS('|', id, CAST(d AS CHAR), CAST(dt AS CHAR), CAST(ts AS CHAR)) ORDER BY id)"
                + " FROM types.zero";
        // Zero dates, the zero TIMESTAMP and dates with a zero month or day arrive as they are.
        assertThat(target.queryString(zero)).isEqualTo(source.queryString(zero)).startsWith("1|0000-00-00|0000-00-00 00:00:00.000");
        assertThat(TableComparison.checksum(target, "types.zero")).isEqualTo(TableComparison.checksum(source, "types.zero"));
        // JDBC reads TIME as java.sql.Time and drops hours above 23 and fractions: compare the SQL text.
        String exact = "SELECT GROUP_CONCAT(CONCAT_WS('|', id, CAST(tm AS CHAR), CAST(dt AS CHAR), CAST(dtm AS CHAR),"
                + " HEX(vc), HEX(vcl), HEX(txl), CAST(ts AS CHAR)) ORDER BY id) FROM types.all_types";
        assertThat(target.queryString(exact)).isEqualTo(source.queryString(exact)).contains("|838:59:59.000000")
                .contains("|-838:59:59.000000").contains("|-00:00:00.500000").contains("|-12:34:56.789012");
        assertThat(target.queryString("SELECT LENGTH(lb) FROM types.all_types WHERE id = 2")).isEqualTo("1048576");
        assertThat(target.queryString("SELECT HEX(vc) FROM types.all_types WHERE id = 9"))
                .isEqualTo("615C620027220A0D1A7A");
        assertThat(result.rows()).isEqualTo(15);
    }

    @Test
    @Order(2)
    void ddlMidStreamAndTwoSchemaTransactionsApplyInOrder() throws Exception {
        source.execute("CREATE DATABASE a", "CREATE DATABASE b",
                "CREATE TABLE a.acct (id INT PRIMARY KEY, bal BIGINT NOT NULL)",
                "CREATE TABLE b.acct (id INT PRIMARY KEY, bal BIGINT NOT NULL)",
                "INSERT INTO a.acct VALUES (1, 100), (2, 100)", "INSERT INTO b.acct VALUES (1, 100), (2, 100)",
                "CREATE TABLE a.gen (id INT PRIMARY KEY, v INT, twice INT AS (v * 2) VIRTUAL,"
                        + " next INT AS (v + 1) PERSISTENT, label VARCHAR(10))",
                "INSERT INTO a.gen (id, v, label) VALUES (1, 10, 'x'), (2, 20, 'y')",
                "UPDATE a.gen SET v = v + 5 WHERE id = 1", "DELETE FROM a.gen WHERE id = 2");
        for (int i = 0; i < 30; i++) {
            // Alternate single-schema and two-schema transactions on the same rows: only source order gives the final values.
            source.execute("BEGIN", "UPDATE a.acct SET bal = bal - " + i + " WHERE id = 1",
                    "UPDATE b.acct SET bal = bal + " + i + " WHERE id = 1", "COMMIT",
                    "UPDATE a.acct SET bal = bal * 2 - " + i + " WHERE id = 1",
                    "UPDATE b.acct SET bal = bal + 1 WHERE id = 2");
            if (i == 10) {
                source.execute("ALTER TABLE a.acct ADD COLUMN note VARCHAR(20) NULL AFTER id",
                        "UPDATE a.acct SET note = 'after alter'",
                        "CREATE TABLE b.tmp (id INT PRIMARY KEY, v VARCHAR(10))",
                        "INSERT INTO b.tmp VALUES (1, 'x')",
                        "RENAME TABLE b.tmp TO b.renamed",
                        "INSERT INTO b.renamed VALUES (2, 'y')");
            }
            if (i == 20) {
                source.execute("CREATE TABLE a.gone (id INT PRIMARY KEY)", "INSERT INTO a.gone VALUES (1)",
                        "DROP TABLE a.gone", "ALTER TABLE b.acct DROP COLUMN bal, ADD COLUMN bal BIGINT NOT NULL DEFAULT 7");
            }
        }

        catchUp();

        assertSameTable(source, target, "a.acct", "id");
        assertSameTable(source, target, "b.acct", "id");
        assertSameTable(source, target, "b.renamed", "id");
        assertSameTable(source, target, "a.gen", "id");
        assertThat(target.queryString("SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'a' AND TABLE_NAME = 'gone'"))
                .isEqualTo("0");
        assertThat(target.queryString("SELECT note FROM a.acct WHERE id = 2")).isEqualTo("after alter");
    }

    @Test
    @Order(3)
    void droppedBinlogConnectionResumesWithoutGapsOrDuplicates() throws Exception {
        source.execute("CREATE DATABASE r", "CREATE TABLE r.t (id INT PRIMARY KEY, v INT NOT NULL)");
        catchUp();
        List<String> notices = new CopyOnWriteArrayList<>();
        ChangeStream stream = stream().reconnectPause(java.time.Duration.ofMillis(100)).notices(notices::add).build();
        ExecutorService runner = Executors.newSingleThreadExecutor();
        try {
            Future<ChangeStream.Result> running = runner.submit(stream::run);
            int kills = 0;
            for (int i = 1; i <= 300; i++) {
                source.execute("BEGIN", "INSERT INTO r.t VALUES (" + i + ", 0)", "UPDATE r.t SET v = v + 1 WHERE id = " + i,
                        "COMMIT");
                if (i % 60 == 0) {
                    String id = source.queryString("SELECT ID FROM information_schema.PROCESSLIST WHERE COMMAND = 'Binlog Dump'");
                    if (id != null) {
                        source.execute("KILL CONNECTION " + id);
                        kills++;
                    }
                }
            }
            MariaDbGtidPosition end = MariaDbGtidPosition.parse(source.gtidBinlogPos());
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (!stream.progress().applied().hasReached(end) && System.nanoTime() < deadline && !running.isDone()) {
                TimeUnit.MILLISECONDS.sleep(50);
            }
            stream.stop();
            running.get(30, TimeUnit.SECONDS);
            assertThat(kills).isGreaterThan(0);
            assertThat(notices).anyMatch(notice -> notice.startsWith("binlog connection to " + source.address() + " lost (")
                    && notice.contains("reading again after 0-1-"));
            assertThat(registry.find("shardgate.stream.retries").tag("kind", "reconnect").counter().count())
                    .isGreaterThanOrEqualTo(1);
        } finally {
            runner.shutdownNow();
        }
        assertSameTable(source, target, "r.t", "id");
        assertThat(target.queryString("SELECT COUNT(*) FROM r.t WHERE v <> 1")).isEqualTo("0");
    }

    private double reconnects() {
        return registry.find("shardgate.stream.retries").tag("kind", "reconnect").counter().count();
    }

    private static void await(String what, java.util.function.BooleanSupplier condition, Future<?> running) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!condition.getAsBoolean()) {
            if (running.isDone()) {
                running.get();
                throw new AssertionError("the stream ended while waiting for " + what);
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for " + what);
            }
            TimeUnit.MILLISECONDS.sleep(50);
        }
    }

    @Test
    @Order(4)
    void aSourceThatHangsOrRestartsAndATargetThatRestartsLoseNothing() throws Exception {
        source.execute("CREATE DATABASE h", "CREATE TABLE h.t (id INT PRIMARY KEY)");
        catchUp();
        ChangeStream stream = stream().reconnectPause(java.time.Duration.ofMillis(200))
                .silenceTimeout(java.time.Duration.ofSeconds(2)).build();
        ExecutorService runner = Executors.newSingleThreadExecutor();
        try {
            Future<ChangeStream.Result> running = runner.submit(stream::run);
            source.execute("INSERT INTO h.t VALUES (1)");
            await("row 1", () -> "1".equals(target.queryString("SELECT COUNT(*) FROM h.t")), running);
            // Idle for two silence periods: heartbeats keep the connection.
            long idleUntil = System.nanoTime() + TimeUnit.SECONDS.toNanos(4);
            while (System.nanoTime() < idleUntil) {
                TimeUnit.MILLISECONDS.sleep(100);
            }
            assertThat(reconnects()).as("reconnects while idle").isZero();

            source.freeze();
            try {
                await("the silent connection to be dropped", () -> reconnects() >= 1, running);
            } finally {
                source.thaw();
            }
            source.execute("INSERT INTO h.t VALUES (2)");
            await("row 2", () -> "2".equals(target.queryString("SELECT COUNT(*) FROM h.t")), running);

            source.stop();
            source.restart();
            source.execute("INSERT INTO h.t VALUES (3)");
            await("row 3", () -> "3".equals(target.queryString("SELECT COUNT(*) FROM h.t")), running);

            // The target goes away while a row waits for it: the applier retries on a new connection.
            target.stop();
            source.execute("INSERT INTO h.t VALUES (4)");
            target.restart();
            await("row 4", () -> "4".equals(target.queryString("SELECT COUNT(*) FROM h.t")), running);
            assertThat(registry.find("shardgate.stream.retries").tag("kind", "apply").counter().count()).isPositive();
            stream.stop();
            running.get(30, TimeUnit.SECONDS);
        } finally {
            runner.shutdownNow();
        }
        assertSameTable(source, target, "h.t", "id");
    }

    @Test
    @Order(5)
    void aRowThatCannotBeAppliedStopsAnIdleStreamNamingGtidTableAndKey() throws Exception {
        source.execute("CREATE DATABASE dup", "CREATE TABLE dup.t (id INT PRIMARY KEY, v INT)");
        catchUp();
        target.execute("INSERT INTO dup.t VALUES (5, 0)");
        ChangeStream stream = stream().build();
        ExecutorService runner = Executors.newSingleThreadExecutor();
        try {
            Future<ChangeStream.Result> running = runner.submit(stream::run);
            source.execute("INSERT INTO dup.t VALUES (4, 1)", "INSERT INTO dup.t VALUES (5, 1)");
            String gtid = source.gtidBinlogPos();
            Throwable failure = org.assertj.core.api.Assertions.catchThrowable(() -> running.get(60, TimeUnit.SECONDS));
            assertThat(failure).isInstanceOf(java.util.concurrent.ExecutionException.class);
            assertThat(failure.getCause()).isInstanceOf(StreamException.class)
                    .hasMessageContaining("transaction " + gtid).hasMessageContaining("dup.t")
                    .hasMessageContaining("(id=5)").hasMessageContaining("Duplicate entry");
        } finally {
            runner.shutdownNow();
        }
        assertThat(target.queryString("SELECT COUNT(*) FROM dup.t WHERE id = 4")).isEqualTo("1");
        assertThat(target.queryString("SELECT v FROM dup.t WHERE id = 5")).as("never overwritten or skipped").isEqualTo("0");
        target.execute("DELETE FROM dup.t WHERE id = 5");
        catchUp();
        assertSameTable(source, target, "dup.t", "id");
    }

    @Test
    @Order(6)
    void twoGtidDomainsAreTrackedSeparately() throws Exception {
        source.execute("CREATE DATABASE dom", "CREATE TABLE dom.t (id INT PRIMARY KEY, v INT)");
        source.execute("SET SESSION gtid_domain_id = 7", "INSERT INTO dom.t VALUES (1, 7)", "INSERT INTO dom.t VALUES (2, 7)");
        source.execute("INSERT INTO dom.t VALUES (3, 0)");
        ChangeStream.Result first = catchUp();
        assertThat(first.applied().byDomain()).containsKeys(0L, 7L);
        assertThat(target.queryString("SELECT GROUP_CONCAT(CONCAT(domain_id, '-', server_id, '-', seq) ORDER BY domain_id)"
                + " FROM _shardgate.apply_position WHERE schema_name = 'dom'"))
                .isEqualTo(MariaDbGtidPosition.parse(source.gtidBinlogPos()).toString());

        source.execute("SET SESSION gtid_domain_id = 7", "UPDATE dom.t SET v = 77 WHERE id = 1");
        source.execute("DELETE FROM dom.t WHERE id = 3");
        catchUp();
        assertSameTable(source, target, "dom.t", "id");
    }

    @Test
    @Order(7)
    void aDdlAppliedBeforeACrashButNotRecordedIsAppliedAgainWithoutError() throws Exception {
        source.execute("CREATE DATABASE redo", "CREATE TABLE redo.t (id INT PRIMARY KEY)", "INSERT INTO redo.t VALUES (1)");
        MariaDbGtidPosition beforeAlter = MariaDbGtidPosition.parse(source.gtidBinlogPos());
        source.execute("ALTER TABLE redo.t ADD COLUMN note VARCHAR(10) DEFAULT 'n'");
        catchUp();
        // What a crash between the ALTER and its position leaves: the column exists, the position is older.
        String before = beforeAlter.byDomain().get(0L).toString();
        String[] parts = before.split("-");
        target.execute("UPDATE _shardgate.apply_position SET server_id = " + parts[1] + ", seq = " + parts[2]
                + " WHERE schema_name IN ('redo', '') AND domain_id = 0");
        source.execute("INSERT INTO redo.t (id, note) VALUES (2, 'after')");

        catchUp();

        assertSameTable(source, target, "redo.t", "id");
    }

    @Test
    @Order(8)
    void anUpdateOfARowMissingOnTheTargetStopsTheStreamNamingGtidTableAndKey() throws Exception {
        source.execute("CREATE DATABASE gone", "CREATE TABLE gone.t (id INT PRIMARY KEY, v INT)",
                "INSERT INTO gone.t VALUES (1, 0), (2, 0)");
        catchUp();
        target.execute("DELETE FROM gone.t WHERE id = 2");
        source.execute("BEGIN", "UPDATE gone.t SET v = 1 WHERE id = 1", "UPDATE gone.t SET v = 1 WHERE id = 2", "COMMIT");
        MariaDbGtidPosition end = MariaDbGtidPosition.parse(source.gtidBinlogPos());
        Throwable failure = org.assertj.core.api.Assertions.catchThrowable(() -> stream().untilGtid(end).build().run());
        assertThat(failure).isInstanceOf(StreamException.class)
                .hasMessageContaining("transaction " + end.byDomain().get(0L)).hasMessageContaining("UPDATE into gone.t")
                .hasMessageContaining("(id=2)").hasMessageContaining("row not found");
        assertThat(target.queryString("SELECT v FROM gone.t WHERE id = 1")).as("rolled back with its transaction")
                .isEqualTo("0");
        target.execute("INSERT INTO gone.t VALUES (2, 0)");
        catchUp();
        assertSameTable(source, target, "gone.t", "id");
    }

    @Test
    @Order(9)
    void xaTransactionsApplyAtTheirCommitAlsoWhenTheStreamStopsBetweenPrepareAndCommit() throws Exception {
        source.execute("CREATE DATABASE xa", "CREATE TABLE xa.t (id INT PRIMARY KEY, v INT NOT NULL)", "INSERT INTO xa.t VALUES (1, 0)");
        catchUp();
        try (java.sql.Connection a = source.connect(); java.sql.Statement sa = a.createStatement();
             java.sql.Connection b = source.connect(); java.sql.Statement sb = b.createStatement()) {
            sa.execute("XA START 'a1'");
            sa.execute("INSERT INTO xa.t VALUES (10, 1)");
            sa.execute("UPDATE xa.t SET v = 5 WHERE id = 1");
            sa.execute("XA END 'a1'");
            sa.execute("XA PREPARE 'a1'");
            source.execute("INSERT INTO xa.t VALUES (11, 1)");
            sb.execute("XA START 'b1', 'br', 7");
            sb.execute("INSERT INTO xa.t VALUES (12, 1)");
            sb.execute("XA END 'b1', 'br', 7");
            sb.execute("XA PREPARE 'b1', 'br', 7");
            // A stream that stops while both are prepared: the plain insert is applied, the prepared rows are not, and
            // its restart point stays before the first prepare.
            MariaDbGtidPosition prepared = MariaDbGtidPosition.parse(source.gtidBinlogPos());
            ChangeStream.Result first = stream().untilGtid(prepared).build().run();
            assertThat(first.applied().hasReached(prepared)).as("held before the prepares: " + first.applied()).isFalse();
            assertThat(target.queryString("SELECT COUNT(*) FROM xa.t WHERE id = 11")).isEqualTo("1");
            assertThat(target.queryString("SELECT COUNT(*) FROM xa.t WHERE id IN (10, 12)")).isEqualTo("0");
            sa.execute("XA COMMIT 'a1'");
            sb.execute("XA ROLLBACK 'b1', 'br', 7");
            sa.execute("XA START 'a2'");
            sa.execute("INSERT INTO xa.t VALUES (13, 1)");
            sa.execute("XA END 'a2'");
            sa.execute("XA COMMIT 'a2' ONE PHASE");
        }
        catchUp(); // a new stream, from the stored restart point: it reads the prepares again
        assertSameTable(source, target, "xa.t", "id");
        assertThat(target.queryString("SELECT v FROM xa.t WHERE id = 1")).isEqualTo("5");
        assertThat(target.queryString("SELECT COUNT(*) FROM xa.t WHERE id IN (10, 12, 13)")).isEqualTo("2");
    }

    @Test
    @Order(10)
    void aSourceSnapshotWaitsForTheXaTransactionsPreparedBeforeItToEnd() throws Exception {
        source.execute("CREATE DATABASE IF NOT EXISTS xa", "CREATE TABLE IF NOT EXISTS xa.s (id INT PRIMARY KEY)");
        try (java.sql.Connection a = source.connect(); java.sql.Statement sa = a.createStatement();
             java.sql.Connection snapshot = source.connect()) {
            sa.execute("XA START 'q1'");
            sa.execute("INSERT INTO xa.s VALUES (1)");
            sa.execute("XA END 'q1'");
            sa.execute("XA PREPARE 'q1'");
            ExecutorService committer = Executors.newSingleThreadExecutor();
            try {
                Future<?> commit = committer.submit(() -> {
                    TimeUnit.MILLISECONDS.sleep(300);
                    sa.execute("XA COMMIT 'q1'");
                    return null;
                });
                MariaDbGtidPosition position = io.shardgate.replication.diff.SnapshotGtid.begin(snapshot).position();
                assertThat(commit.isDone()).as("the snapshot waited for the prepared XA transaction to end").isTrue();
                commit.get();
                try (java.sql.Statement read = snapshot.createStatement();
                     java.sql.ResultSet rows = read.executeQuery("SELECT COUNT(*) FROM xa.s")) {
                    rows.next();
                    assertThat(rows.getInt(1)).as("the snapshot shows the committed row").isEqualTo(1);
                }
                assertThat(position.hasReached(MariaDbGtidPosition.parse(source.gtidBinlogPos()))).isTrue();
            } finally {
                committer.shutdownNow();
            }
        }
    }
    @Test
    @Order(11)
    void aStreamGoingOnFromASnapshotReadsTheXaPreparedBeforeItAndSkipsWhatItHolds() throws Exception {
        source.execute("CREATE DATABASE IF NOT EXISTS xa", "CREATE TABLE xa.l (id INT PRIMARY KEY, v INT NOT NULL)");
        catchUp();
        try (java.sql.Connection a = source.connect(); java.sql.Statement sa = a.createStatement();
             java.sql.Connection b = source.connect(); java.sql.Statement sb = b.createStatement();
             java.sql.Connection snapshot = source.connect()) {
            sb.execute("XA START 'before'");
            sb.execute("INSERT INTO xa.l VALUES (0, 1)");
            sb.execute("XA END 'before'");
            sb.execute("XA PREPARE 'before'");
            MariaDbGtidPosition lookback = MariaDbGtidPosition.parse(source.gtidBinlogPos());
            sa.execute("XA START 'after'");
            sa.execute("INSERT INTO xa.l VALUES (1, 1)");
            sa.execute("XA END 'after'");
            sa.execute("XA PREPARE 'after'");
            sb.execute("XA COMMIT 'before'"); // ends, between the lookback and the snapshot, an XA prepared before both
            source.execute("INSERT INTO xa.l VALUES (2, 1)");
            MariaDbGtidPosition position = io.shardgate.replication.diff.SnapshotGtid.beginAt(snapshot);
            // The target is loaded from the snapshot, as a copy does: rows 0 and 2, not the prepared row 1.
            List<String> copied = rowsAsValues(snapshot, "xa.l");
            assertThat(copied).containsExactly("(0, 1)", "(2, 1)");
            target.execute("INSERT INTO xa.l VALUES " + String.join(", ", copied));
            sa.execute("XA COMMIT 'after'");
            source.execute("INSERT INTO xa.l VALUES (3, 1)", "UPDATE xa.l SET v = 5 WHERE id IN (1, 2)");
            MariaDbGtidPosition end = MariaDbGtidPosition.parse(source.gtidBinlogPos());
            ChangeStream.Result result = stream().fromSnapshot(new io.shardgate.replication.gtid.SnapshotPoint(position, lookback))
                    .untilGtid(end).build().run();
            assertThat(result.applied().hasReached(end)).isTrue();
        }
        assertSameTable(source, target, "xa.l", "id");
        assertThat(target.queryString("SELECT GROUP_CONCAT(id, ':', v ORDER BY id) FROM xa.l")).isEqualTo("0:1,1:5,2:5,3:1");
    }

    @Test
    @Order(12)
    void underSustainedXaTrafficASnapshotIsTakenAndAStreamGoingOnFromItMissesNothing() throws Exception {
        source.execute("CREATE DATABASE IF NOT EXISTS xa", "CREATE TABLE xa.w (id INT PRIMARY KEY, v INT NOT NULL)");
        catchUp();
        java.util.concurrent.atomic.AtomicBoolean running = new java.util.concurrent.atomic.AtomicBoolean(true);
        java.util.concurrent.atomic.AtomicLong committed = new java.util.concurrent.atomic.AtomicLong();
        ExecutorService writers = Executors.newFixedThreadPool(3);
        List<Future<?>> writing = new ArrayList<>();
        for (int w = 0; w < 3; w++) {
            int writer = w;
            writing.add(writers.submit(() -> {
                try (java.sql.Connection c = source.connect(); java.sql.Statement st = c.createStatement()) {
                    for (int i = 0; running.get(); i++) {
                        String xid = "'w" + writer + "-" + i + "'";
                        st.execute("XA START " + xid);
                        st.execute("INSERT INTO xa.w VALUES (" + (writer * 1_000_000 + i) + ", 0)");
                        st.execute("UPDATE xa.w SET v = v + 1 WHERE id = " + (writer * 1_000_000 + i / 2));
                        st.execute("XA END " + xid);
                        st.execute("XA PREPARE " + xid);
                        st.execute("XA COMMIT " + xid);
                        committed.incrementAndGet();
                    }
                }
                return null;
            }));
        }
        try (java.sql.Connection snapshot = source.connect()) {
            await("XA traffic", () -> committed.get() > 200, writing.get(0));
            long started = System.nanoTime();
            io.shardgate.replication.gtid.SnapshotPoint point = io.shardgate.replication.diff.SnapshotGtid.begin(snapshot);
            long tookMillis = (System.nanoTime() - started) / 1_000_000;
            System.out.println("snapshot under XA traffic after " + tookMillis + " ms at " + point);
            List<String> copied = rowsAsValues(snapshot, "xa.w");
            assertThat(copied).isNotEmpty();
            target.execute("INSERT INTO xa.w VALUES " + String.join(", ", copied));
            long atSnapshot = committed.get();
            await("more XA traffic", () -> committed.get() > atSnapshot + 200, writing.get(0));
            running.set(false);
            for (Future<?> w : writing) {
                w.get(30, TimeUnit.SECONDS);
            }
            MariaDbGtidPosition end = MariaDbGtidPosition.parse(source.gtidBinlogPos());
            ChangeStream.Result result = stream().fromSnapshot(point).untilGtid(end).build().run();
            assertThat(result.applied().hasReached(end)).isTrue();
        } finally {
            running.set(false);
            writers.shutdownNow();
        }
        assertSameTable(source, target, "xa.w", "id");
    }

    /** {@code table}'s rows {@code (id, v)} as the session's snapshot shows them, in key order, as SQL row values. */
    private static List<String> rowsAsValues(java.sql.Connection snapshot, String table) throws java.sql.SQLException {
        List<String> values = new ArrayList<>();
        try (java.sql.Statement read = snapshot.createStatement();
             java.sql.ResultSet rows = read.executeQuery("SELECT id, v FROM " + table + " ORDER BY id")) {
            while (rows.next()) {
                values.add("(" + rows.getInt(1) + ", " + rows.getInt(2) + ")");
            }
        }
        return values;
    }
}
