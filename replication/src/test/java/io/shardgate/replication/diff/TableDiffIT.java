package io.shardgate.replication.diff;

import io.shardgate.replication.gtid.MariaDbGtidPosition;
import io.shardgate.replication.topology.Node;
import io.shardgate.replication.topology.Topology;
import io.shardgate.replication.topology.TopologySpec;
import io.shardgate.storage.Engine;
import io.shardgate.storage.InnoDbAdapter;
import io.shardgate.storage.MyRocksAdapter;
import io.shardgate.storage.checksum.TableName;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The diff on real servers: an InnoDB source, and its rows split by key over an InnoDB target (t1) and a
 * MyRocks target (t2), as a reshard leaves them. Differences are introduced one of each kind and each is
 * reported exactly; a composite VARCHAR key under utf8mb4_general_ci gives no false mismatch; a diff
 * stopped after a checkpoint resumes with the rest only.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class TableDiffIT {
    private static final int ROWS = 20_000;
    private static final int SPLIT = 10_000;
    private static final TableName ITEMS = TableName.parse("d.items");
    private static final TableName NAMES = TableName.parse("d.names");
    private static final DiffOptions OPTIONS = DiffOptions.defaults().withChunkRows(2_000, 500, 5_000).withNarrowRows(100);

    private Topology topology;
    private Node source;
    private Node t1;
    private Node t2;

    @BeforeAll
    void start() {
        topology = Topology.start(TopologySpec.builder()
                .shard("src", Engine.INNODB, 0)
                .shard("t1", Engine.INNODB, 0)
                .shard("t2", Engine.ROCKSDB, 0)
                .build());
        source = topology.shard("src").primary();
        t1 = topology.shard("t1").primary();
        t2 = topology.shard("t2").primary();
        String items = "CREATE TABLE d.items (id BIGINT PRIMARY KEY, name VARCHAR(64) CHARACTER SET utf8mb4, note TEXT,"
                + " price DECIMAL(12,2))";
        String names = "CREATE TABLE d.names (region VARCHAR(16) COLLATE utf8mb4_general_ci,"
                + " name VARCHAR(32) COLLATE utf8mb4_general_ci, v INT, PRIMARY KEY (region, name))";
        String fill = "INSERT INTO d.items SELECT seq, CONCAT('item ü ', seq), IF(seq % 7 = 0, NULL, REPEAT('n', seq % 20)),"
                + " seq * 1.25 FROM d.seq_1_to_" + ROWS;
        for (Node node : List.of(source, t1, t2)) {
            node.execute("CREATE DATABASE d", items, names, fill);
        }
        source.execute("INSERT INTO d.names VALUES ('east', 'alice', 1), ('east', 'Bob', 2), ('east', 'carol', 3),"
                + " ('East ', 'Dave', 4), ('west', 'Émile', 5), ('WEST', 'eve', 6), ('west', 'Frank', 7), ('west', 'gina', 8)");
        t1.execute("DELETE FROM d.items WHERE id > " + SPLIT,
                "INSERT INTO d.names SELECT * FROM (SELECT 'east' r, 'alice' n, 1 v UNION ALL SELECT 'east', 'Bob', 2"
                        + " UNION ALL SELECT 'east', 'carol', 3 UNION ALL SELECT 'East ', 'Dave', 4) x");
        t2.execute("DELETE FROM d.items WHERE id <= " + SPLIT,
                "INSERT INTO d.names VALUES ('west', 'Émile', 5), ('WEST', 'eve', 6), ('west', 'Frank', 7), ('west', 'gina', 8)");
    }

    @AfterAll
    void stop() {
        if (topology != null) {
            topology.close();
        }
    }

    private DiffPoints points() {
        return new QuiescedDiffPoints(source::connect, List.of(t1::connect, t2::connect));
    }

    private TableDiff diff(TableName table, List<DiffTarget> targets) {
        return TableDiff.of(table, points(), new InnoDbAdapter().checksum(), targets, OPTIONS);
    }

    private List<DiffTarget> targets() {
        return List.of(DiffTarget.of("t1", new InnoDbAdapter().checksum()), DiffTarget.of("t2", new MyRocksAdapter().checksum()));
    }

    @Test
    @Order(1)
    void theSnapshotStandsAtTheSourcesGtid() throws SQLException {
        try (MatchedSnapshots snapshots = points().open()) {
            assertThat(snapshots.targets()).hasSize(2);
            assertThat(snapshots.position()).isEqualTo(MariaDbGtidPosition.parse(source.gtidBinlogPos()));
            assertThat(snapshots.position()).isNotEqualTo(MariaDbGtidPosition.empty());
        }
    }

    @Test
    @Order(2)
    void aCleanSplitReportsNothing() throws SQLException {
        TableDiffTest.Recorder recorder = new TableDiffTest.Recorder();
        DiffCheckpoint end = diff(ITEMS, targets()).run(recorder);
        assertThat(recorder.mismatches).isEmpty();
        assertThat(end.clean()).isTrue();
        assertThat(end.rowsCompared()).isEqualTo(ROWS);
        assertThat(end.chunksDone()).isEqualTo(recorder.checkpoints.size()).isGreaterThanOrEqualTo(4);
    }

    @Test
    @Order(3)
    void compositeCaseInsensitiveKeysMergeWithoutFalseMismatches() throws SQLException {
        TableDiffTest.Recorder recorder = new TableDiffTest.Recorder();
        DiffOptions tiny = DiffOptions.defaults().withChunkRows(2, 1, 2).withNarrowRows(1);
        DiffCheckpoint end = TableDiff.of(NAMES, points(), new InnoDbAdapter().checksum(), targets(), tiny).run(recorder);
        assertThat(recorder.mismatches).isEmpty();
        assertThat(end.rowsCompared()).isEqualTo(8);
        assertThat(end.chunksDone()).isGreaterThanOrEqualTo(4);

        // The same row under the collation, stored differently: one DIFFERENT, on the target that has it.
        t2.execute("UPDATE d.names SET name = 'EVE' WHERE name = 'eve'");
        recorder = new TableDiffTest.Recorder();
        end = TableDiff.of(NAMES, points(), new InnoDbAdapter().checksum(), targets(), tiny).run(recorder);
        assertThat(recorder.mismatches).containsExactly("DIFFERENT (WEST, eve) on t2");
        assertThat(end.mismatches()).isEqualTo(1);
    }

    @Test
    @Order(4)
    void eachKindOfDifferenceIsReportedExactly() throws SQLException {
        t1.execute("DELETE FROM d.items WHERE id = 1234",
                "UPDATE d.items SET price = price + 0.01 WHERE id = 4321");
        t2.execute("INSERT INTO d.items VALUES (30000, 'extra', NULL, 1.00)",
                "INSERT INTO d.items VALUES (5000, 'item ü 5000', '', 6250.00)");
        assertThat(source.queryString("SELECT COUNT(*) FROM d.items WHERE id = 5000 AND name = 'item ü 5000'"
                + " AND note = '' AND price = 6250.00")).isEqualTo("1");
        TableDiffTest.Recorder recorder = new TableDiffTest.Recorder();
        DiffCheckpoint end = diff(ITEMS, targets()).run(recorder);
        assertThat(recorder.mismatches).containsExactly(
                "MISSING_ON_TARGET (1234)",
                "DIFFERENT (4321) on t1",
                "EXTRA_ON_TARGET (5000) on t2",
                "EXTRA_ON_TARGET (30000) on t2");
        assertThat(end.mismatches()).isEqualTo(4);
        assertThat(end.rowsCompared()).isEqualTo(ROWS);
    }

    @Test
    @Order(5)
    void ownershipNamesTheRowOnTheWrongTarget() throws SQLException {
        List<DiffTarget> owning = List.of(
                DiffTarget.of("t1", new InnoDbAdapter().checksum()).owning(List.of("id"), key -> ((Number) key[0]).longValue() <= SPLIT),
                DiffTarget.of("t2", new MyRocksAdapter().checksum()).owning(List.of("id"), key -> ((Number) key[0]).longValue() > SPLIT));
        TableDiffTest.Recorder recorder = new TableDiffTest.Recorder();
        diff(ITEMS, owning).run(recorder);
        assertThat(recorder.mismatches).contains("NOT_OWNED (5000) on t2", "EXTRA_ON_TARGET (5000) on t2")
                .filteredOn(m -> m.startsWith("NOT_OWNED")).containsExactly("NOT_OWNED (5000) on t2");
    }

    @Test
    @Order(6)
    void aStoppedDiffResumesWithTheRestOnly() throws SQLException {
        TableDiffTest.Recorder first = new TableDiffTest.Recorder();
        first.failOnCheckpoint = 2;
        assertThatThrownBy(() -> diff(ITEMS, targets()).run(first)).hasMessage("crash after checkpoint 2");
        DiffCheckpoint saved = first.checkpoints.get(1);
        assertThat(saved.finished()).isFalse();
        assertThat(saved.rowsCompared()).isPositive().isLessThan(ROWS);
        assertThat(saved.comparedBelow()).hasSize(1);
        long compared = saved.rowsCompared();

        TableDiffTest.Recorder rest = new TableDiffTest.Recorder();
        DiffCheckpoint end = diff(ITEMS, targets()).run(saved, rest);
        assertThat(end.rowsCompared()).isEqualTo(ROWS);
        long below = ((Number) saved.comparedBelow().get(0)).longValue();
        assertThat(rest.checkpoints.get(0).rowsCompared()).isGreaterThan(compared);
        assertThat(rest.mismatches).as("only the differences at or above " + below)
                .allSatisfy(m -> assertThat(Long.parseLong(m.substring(m.indexOf('(') + 1, m.indexOf(')')))).isGreaterThanOrEqualTo(below));
        assertThat(end.mismatches()).isEqualTo(4);
    }

    @Test
    @Order(7)
    void aCompositeKeyIsReadByRangesNotFromTheStartForEachChunk() throws SQLException {
        int rows = 20_000;
        String ddl = "CREATE TABLE d.pairs (a INT, b VARCHAR(20) COLLATE utf8mb4_general_ci, v INT, PRIMARY KEY (a, b))";
        String fill = "INSERT INTO d.pairs SELECT seq % 10, CONCAT(IF(seq % 3 = 0, 'N', 'n'), seq), seq FROM d.seq_1_to_" + rows;
        source.execute(ddl, fill);
        t1.execute(ddl, fill, "DELETE FROM d.pairs WHERE a >= 5");
        t2.execute(ddl, fill, "DELETE FROM d.pairs WHERE a < 5", "UPDATE d.pairs SET v = -1 WHERE a = 7 AND b = 'n7'");
        long before = rowsRead(source);
        TableDiffTest.Recorder recorder = new TableDiffTest.Recorder();
        DiffCheckpoint end = TableDiff.of(TableName.parse("d.pairs"), points(), new InnoDbAdapter().checksum(), targets(),
                DiffOptions.defaults().withChunkRows(1_000, 1_000, 1_000)).run(recorder);
        long read = rowsRead(source) - before;
        assertThat(recorder.mismatches).containsExactly("DIFFERENT (7, n7) on t2");
        assertThat(end.rowsCompared()).isEqualTo(rows);
        assertThat(end.chunksDone()).isEqualTo(20);
        // A walk and a checksum per chunk read each row about twice; from the start each time, 20 chunks would read ~20x.
        assertThat(read).as("rows the source read").isLessThan(4L * rows);
    }

    @Test
    @Order(9)
    void writesAfterTheSnapshotsOpenedAreNotSeen() throws SQLException {
        String ddl = "CREATE TABLE d.quiet (id INT PRIMARY KEY, v INT)";
        String fill = "INSERT INTO d.quiet SELECT seq, seq FROM d.seq_1_to_1000";
        source.execute(ddl, fill);
        t1.execute(ddl, fill, "DELETE FROM d.quiet WHERE id > 500");
        t2.execute(ddl, fill, "DELETE FROM d.quiet WHERE id <= 500");
        MariaDbGtidPosition[] seen = new MariaDbGtidPosition[1];
        DiffPoints writeAfterOpening = () -> {
            MatchedSnapshots snapshots = points().open();
            if (seen[0] == null) {
                seen[0] = snapshots.position();
                source.execute("INSERT INTO d.quiet VALUES (1001, 1001)", "UPDATE d.quiet SET v = -1 WHERE id = 7");
            }
            return snapshots;
        };
        MariaDbGtidPosition before = MariaDbGtidPosition.parse(source.gtidBinlogPos());
        DiffOptions oneSnapshot = new DiffOptions(java.time.Duration.ofMillis(500), 100, 100, 100, 10, 100,
                java.time.Duration.ofHours(1));
        TableDiffTest.Recorder recorder = new TableDiffTest.Recorder();
        DiffCheckpoint end = TableDiff.of(TableName.parse("d.quiet"), writeAfterOpening, new InnoDbAdapter().checksum(),
                targets(), oneSnapshot).run(recorder);
        assertThat(seen[0]).isEqualTo(before);
        assertThat(MariaDbGtidPosition.parse(source.gtidBinlogPos())).isNotEqualTo(before);
        assertThat(recorder.mismatches).as("the snapshot predates both writes").isEmpty();
        assertThat(end.rowsCompared()).isEqualTo(1000);
        assertThat(end.chunksDone()).isEqualTo(10);

        recorder = new TableDiffTest.Recorder();
        TableDiff.of(TableName.parse("d.quiet"), points(), new InnoDbAdapter().checksum(), targets(), oneSnapshot).run(recorder);
        assertThat(recorder.mismatches).containsExactly("DIFFERENT (7) on t1", "MISSING_ON_TARGET (1001)");
    }

    private static long rowsRead(Node node) {
        return Long.parseLong(node.queryString("SELECT SUM(VARIABLE_VALUE) FROM information_schema.GLOBAL_STATUS"
                + " WHERE VARIABLE_NAME IN ('HANDLER_READ_NEXT', 'HANDLER_READ_RND_NEXT', 'HANDLER_READ_FIRST')"));
    }

    @Test
    @Order(8)
    void tablesThatDisagreeOnTheirColumnsAreRefused() throws SQLException {
        t2.execute("ALTER TABLE d.names ADD COLUMN extra INT");
        assertThatThrownBy(() -> diff(NAMES, targets()).run(new TableDiffTest.Recorder()))
                .hasMessageStartingWith("the source and target t2 disagree on the columns of d.names");
        try (Connection connection = source.connect()) {
            assertThat(connection.isValid(1)).isTrue();
        }
    }

    /**
     * Two snapshot connections per target, opened while nobody writes to it, as a job's paused streams open them;
     * {@code betweenLanes} runs on {@code t1} between its first and its second.
     */
    private DiffPoints lanedPoints(String betweenLanes) {
        return () -> {
            List<Connection> opened = new ArrayList<>();
            Connection sourceConnection = source.connect();
            opened.add(sourceConnection);
            MariaDbGtidPosition position = SnapshotGtid.beginAt(sourceConnection);
            List<List<Connection>> lanes = new ArrayList<>();
            for (Node target : List.of(t1, t2)) {
                List<Connection> each = new ArrayList<>();
                for (int lane = 0; lane < 2; lane++) {
                    if (lane == 1 && target == t1 && betweenLanes != null) {
                        t1.execute(betweenLanes);
                    }
                    Connection connection = target.connect();
                    opened.add(connection);
                    SnapshotGtid.beginSnapshot(connection);
                    each.add(connection);
                }
                lanes.add(List.copyOf(each));
            }
            return new MatchedSnapshots() {
                @Override
                public Connection source() {
                    return sourceConnection;
                }

                @Override
                public List<Connection> targets() {
                    return lanes.stream().map(each -> each.get(0)).toList();
                }

                @Override
                public List<List<Connection>> targetLanes() {
                    return lanes;
                }

                @Override
                public MariaDbGtidPosition position() {
                    return position;
                }

                @Override
                public void close() throws SQLException {
                    for (Connection connection : opened) {
                        connection.close();
                    }
                }
            };
        };
    }

    @Test
    @Order(9)
    void targetsReadOverTwoConnectionsFindEachDifferenceAndRefuseConnectionsThatSawDifferentRows() throws SQLException {
        String ddl = "CREATE TABLE d.laned (id BIGINT PRIMARY KEY, v VARCHAR(32))";
        String fill = "INSERT INTO d.laned SELECT seq, CONCAT('v', seq) FROM d.seq_1_to_6000";
        for (Node node : List.of(source, t1, t2)) {
            node.execute(ddl, fill);
        }
        t1.execute("DELETE FROM d.laned WHERE id > 3000", "DELETE FROM d.laned WHERE id = 1500");
        t2.execute("DELETE FROM d.laned WHERE id <= 3000", "UPDATE d.laned SET v = 'changed' WHERE id = 5500");
        DiffOptions chunks = DiffOptions.defaults().withChunkRows(1_000, 1_000, 1_000).withNarrowRows(50);
        TableDiffTest.Recorder recorder = new TableDiffTest.Recorder();
        DiffCheckpoint end = TableDiff.of(TableName.parse("d.laned"), lanedPoints(null), new InnoDbAdapter().checksum(),
                targets(), chunks).run(recorder);
        assertThat(recorder.mismatches).containsExactly("MISSING_ON_TARGET (1500)", "DIFFERENT (5500) on t2");
        assertThat(end.rowsCompared()).isEqualTo(6000);
        assertThat(end.finished()).isTrue();

        // A write to t1 between its two snapshots: its connections would not read the same rows.
        assertThatThrownBy(() -> TableDiff.of(TableName.parse("d.laned"), lanedPoints("INSERT INTO d.laned VALUES (1500, 'v1500')"),
                new InnoDbAdapter().checksum(), targets(), chunks).run(new TableDiffTest.Recorder()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("target t1 took writes while its snapshots were opened");
    }
}
