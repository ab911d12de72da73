package io.shardgate.replication.copy;

import io.shardgate.replication.gtid.MariaDbGtidPosition;
import io.shardgate.replication.gtid.SnapshotPoint;
import io.shardgate.replication.topology.Node;
import io.shardgate.router.shard.KeyRange;
import io.shardgate.router.value.SqlValue;
import io.shardgate.router.vindex.HashVindex;
import io.shardgate.router.vindex.KeyType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The copy against real servers: a hash-sharded table split by key range onto two targets while a
 * writer changes the source throughout; a copy resumed from its last checkpoint; a throttled copy.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CopyIT {
    static final HashVindex VINDEX = new HashVindex(KeyType.INTEGER);
    private static final KeyRange LOW = KeyRange.parse("-80");
    private static final String ORDERS = "(id BIGINT PRIMARY KEY, customer VARCHAR(60) CHARACTER SET utf8mb4,"
            + " total DECIMAL(14,2), qty INT, note TEXT)";
    private static final String ORDER_ROWS = "SELECT id, CONCAT_WS('|', customer, total, qty, IFNULL(HEX(note), 'NULL'))"
            + " FROM %s.orders";
    private CopyFixture fixture;
    private Node source;

    @BeforeAll
    void start() {
        fixture = CopyFixture.start();
        source = fixture.node("src");
    }

    @AfterAll
    void stop() {
        if (fixture != null) {
            fixture.close();
        }
    }

    @Test
    void splitsAHashShardedTableOverTwoTargetsWhileTheSourceChanges() throws Exception {
        createOrders("split", 40_000);
        List<CopyCheckpoint> checkpoints = new CopyOnWriteArrayList<>();
        TableCopy copy = fixture.copy(List.of(new CopyTable("split", "orders", "id", VINDEX)),
                List.of(fixture.target("low", "-80"), fixture.target("high", "80-")),
                CopySettings.defaults().withInitialChunk(500).withMaxChunk(2_000).withSnapshotTime(Duration.ofMillis(200)),
                Throttle.NEVER, checkpoints::add);
        copy.createSchema(false);
        SourceWriter writer = new SourceWriter(source, "split.orders", 40_001, 7).start();
        until("the writer to get going", Duration.ofSeconds(30), () -> writer.operations() > 50);
        SnapshotPoint copied = copy.run(List.of());
        try (CopyStreams streams = copy.startStreaming(copied)) {
            long atCopyEnd = writer.operations();
            until("writes while streaming", Duration.ofSeconds(60), () -> writer.operations() > atCopyEnd + 300);
            assertThat(copy.progress().phase()).isEqualTo(CopyProgress.Phase.STREAMING);
            writer.stop();
            MariaDbGtidPosition end = MariaDbGtidPosition.parse(source.gtidBinlogPos());
            assertThat(streams.awaitPosition(end, Duration.ofSeconds(60))).isTrue();
            assertThat(streams.failure()).isNull();
        }
        assertThat(checkpoints.stream().map(CopyCheckpoint::position).distinct().count())
                .as("snapshots at several positions, so the copy caught up in between").isGreaterThan(2);
        assertThat(checkpoints.get(checkpoints.size() - 1).done()).isTrue();
        assertSplitIdentical("split");
    }

    @Test
    void aResumedCopyRecopiesAtMostOneChunkAndEndsIdentical() throws Exception {
        createOrders("resume", 10_000);
        int chunk = 1_000;
        CopySettings settings = CopySettings.defaults().withInitialChunk(chunk).withMaxChunk(chunk);
        List<CopyCheckpoint> first = new CopyOnWriteArrayList<>();
        List<CopyTarget> targets = List.of(fixture.target("low", "-80"), fixture.target("high", "80-"));
        List<CopyTable> tables = List.of(new CopyTable("resume", "orders", "id", VINDEX));
        TableCopy[] holder = new TableCopy[1];
        holder[0] = fixture.copy(tables, targets, settings, Throttle.NEVER, checkpoint -> {
            first.add(checkpoint);
            if (first.size() == 4) {
                holder[0].cancel();
            }
        });
        holder[0].createSchema(false);
        holder[0].run(List.of());
        assertThat(holder[0].progress().phase()).isEqualTo(CopyProgress.Phase.STOPPED);
        // The last checkpoint is lost: its chunk is on the targets, the caller only has the one before.
        CopyCheckpoint resumeFrom = first.get(first.size() - 2);
        long onTargets = count("low", "resume") + count("high", "resume");
        assertThat(onTargets).isGreaterThan(resumeFrom.rowsCopied());
        source.execute("UPDATE resume.orders SET qty = 99 WHERE id IN (5, 5005)", "DELETE FROM resume.orders WHERE id IN (6, 6006)",
                "INSERT INTO resume.orders VALUES (20000, 'late', 1, 1, NULL)");

        List<CopyCheckpoint> second = new CopyOnWriteArrayList<>();
        TableCopy resumed = fixture.copy(tables, targets, settings, Throttle.NEVER, second::add);
        resumed.createSchema(true);
        SnapshotPoint copied = resumed.run(List.of(resumeFrom));
        long copiedAgain = second.get(second.size() - 1).rowsCopied() - resumeFrom.rowsCopied();
        String lastKey = resumeFrom.lastPk().get(0).value();
        assertThat(copiedAgain).as("the resumed copy reads only what follows the checkpoint")
                .isEqualTo(Long.parseLong(source.queryString("SELECT COUNT(*) FROM resume.orders WHERE id > " + lastKey)));
        assertThat(onTargets - resumeFrom.rowsCopied()).as("rows the lost checkpoint left").isBetween(1L, (long) chunk);
        try (CopyStreams streams = resumed.startStreaming(copied)) {
            assertThat(streams.awaitPosition(MariaDbGtidPosition.parse(source.gtidBinlogPos()), Duration.ofSeconds(60)))
                    .isTrue();
        }
        assertSplitIdentical("resume");
    }

    @Test
    void aThrottleHoldsTheCopyAndSaysWhy() throws Exception {
        source.execute("CREATE DATABASE throttled", "CREATE TABLE throttled.t (id INT PRIMARY KEY, v INT)",
                "INSERT INTO throttled.t SELECT seq, seq FROM throttled.seq_1_to_100");
        AtomicInteger asked = new AtomicInteger();
        Set<String> seen = new HashSet<>();
        TableCopy[] holder = new TableCopy[1];
        Throttle throttle = () -> {
            if (holder[0] != null) {
                seen.add(holder[0].progress().throttled());
            }
            return asked.incrementAndGet() <= 3 ? Optional.of("replica 127.0.0.1:4001 lags 1.8 s > 1 s") : Optional.empty();
        };
        holder[0] = fixture.copy(List.of(CopyTable.whole("throttled", "t")), List.of(fixture.target("rocks", "-")),
                CopySettings.defaults().withThrottlePause(Duration.ofMillis(10)), throttle, checkpoint -> { });
        holder[0].createSchema(false);
        holder[0].run(List.of());
        assertThat(seen).contains("throttled: replica 127.0.0.1:4001 lags 1.8 s > 1 s");
        assertThat(holder[0].progress().throttled()).isEmpty();
        assertThat(fixture.node("rocks").queryString("SELECT COUNT(*) FROM throttled.t")).isEqualTo("100");

        assertThat(Throttles.historyLength(fixture.endpoint("src"), -1).reason())
                .hasValueSatisfying(reason -> assertThat(reason).startsWith("history list length "));
        assertThat(Throttles.historyLength(fixture.endpoint("src"), Long.MAX_VALUE).reason()).isEmpty();
        assertThat(Throttles.replicaStatus(fixture.endpoint("src"), Duration.ofSeconds(1)).reason())
                .hasValue("replica " + fixture.endpoint("src").address() + " does not replicate");
    }

    @Test
    void movesManyTypesByteForByteToInnoDbAndMyRocks() throws Exception {
        source.execute("CREATE DATABASE types", "CREATE TABLE types.t (id INT PRIMARY KEY, ti TINYINT, bu BIGINT UNSIGNED,"
                        + " de DECIMAL(30,10), fl FLOAT, fl2 FLOAT(7,3), db DOUBLE, bi BIT(13), bn BINARY(4), vb VARBINARY(20),"
                        + " bl BLOB, js JSON, dt DATETIME(6), ts TIMESTAMP(6) NULL, tm TIME(3), da DATE, yr YEAR,"
                        + " en ENUM('a','ü','z'), st SET('x','y','z'), u8 VARCHAR(40) CHARACTER SET utf8mb4,"
                        + " l1 VARCHAR(40) CHARACTER SET latin1, ch CHAR(5), KEY (ti))",
                "INSERT INTO types.t (id, ti, bu, de, fl, fl2, db, bi, bn, vb, bl, js, dt, ts, tm, da, yr, en, st, u8, l1, ch)"
                        + " VALUES (1, -128, 18446744073709551615, 12345678901234567890.0123456789, 0.1, 1.5, 0.1,"
                        + " b'1010101010101', X'00FF0010', X'00', X'DEADBEEF00', '{\"a\": [1, \"ü\"]}',"
                        + " '2024-02-29 23:59:59.999999', '2038-01-19 03:14:07.999999', '-838:59:59.999', '1000-01-01', 2155,"
                        + " 'ü', 'x,z', 'emoji 😀 \\\\ \\' \" \\n end', X'E980', '')",
                "INSERT INTO types.t (id, ch) VALUES (2, '')",
                "INSERT INTO types.t (id, ti, bu, de, fl, fl2, db, ts, da, bn, vb, u8, l1) VALUES (3, 127, 0,"
                        + " -0.0000000001, 3.4028e38, -9999.999, 5e-324, '1970-01-01 00:00:01.000001', '0000-00-00',"
                        + " X'00000000', '', '', X'81')",
                "INSERT INTO types.t (id, fl, db, de, dt, u8, l1) SELECT 100 + seq, RAND(seq) * 1000, RAND(seq) / 3,"
                        + " RAND(seq) * 1e9, NOW(6) - INTERVAL seq SECOND, CONCAT('row ', seq),"
                        + " CONCAT('a', CHAR(39), CHAR(92), seq, IF(seq % 2 = 0, CHAR(233), '')) FROM types.seq_1_to_2000");
        TableCopy copy = fixture.copy(List.of(CopyTable.whole("types", "t")),
                List.of(fixture.target("low", "-"), fixture.target("rocks", "-")),
                CopySettings.defaults().withInitialChunk(300).withMaxChunk(300), Throttle.NEVER, checkpoint -> { });
        copy.createSchema(false);
        copy.run(List.of());
        assertThat(fixture.node("rocks").queryString("SELECT ENGINE FROM information_schema.TABLES"
                + " WHERE TABLE_SCHEMA = 'types' AND TABLE_NAME = 't'")).isEqualToIgnoringCase("ROCKSDB");
        String exact = "SELECT id, CONCAT_WS('#', HEX(CAST(ti AS CHAR)), HEX(CAST(bu AS CHAR)), HEX(CAST(de AS CHAR)),"
                + " CAST(fl AS DOUBLE), CAST(fl2 AS DOUBLE), db, HEX(bi), HEX(bn), HEX(vb), HEX(bl), HEX(js),"
                + " HEX(CAST(dt AS CHAR)), HEX(CAST(ts AS CHAR)), HEX(CAST(tm AS CHAR)), HEX(CAST(da AS CHAR)), yr, HEX(en),"
                + " HEX(st), HEX(u8), HEX(l1), HEX(ch), ISNULL(ch), ISNULL(u8), ISNULL(fl)) FROM types.t";
        Map<String, String> expected = CopyFixture.rows(source, exact);
        assertThat(expected).hasSize(2_003);
        assertThat(CopyFixture.rows(fixture.node("low"), exact)).isEqualTo(expected);
        assertThat(CopyFixture.rows(fixture.node("rocks"), exact)).isEqualTo(expected);
        assertThat(checksum(fixture.node("low"))).isEqualTo(checksum(source));
        String crc = "SELECT 1, BIT_XOR(CRC32(CONCAT_WS('#', id, ti, bu, de, fl, fl2, db, HEX(bi), HEX(bn), HEX(vb), HEX(bl),"
                + " js, dt, ts, tm, da, yr, en, st, HEX(u8), HEX(l1), ch, ISNULL(u8)))) FROM types.t";
        assertThat(CopyFixture.rows(fixture.node("rocks"), crc)).isEqualTo(CopyFixture.rows(source, crc));
    }

    @Test
    void refusesWhatMyRocksCannotHoldNamingTheTableAndTheFeature() {
        source.execute("CREATE DATABASE ft", "CREATE TABLE ft.docs (id INT PRIMARY KEY, body TEXT, FULLTEXT KEY (body))");
        TableCopy copy = fixture.copy(List.of(CopyTable.whole("ft", "docs")), List.of(fixture.target("rocks", "-")),
                CopySettings.defaults(), Throttle.NEVER, checkpoint -> { });
        assertThatThrownBy(() -> copy.createSchema(false)).isInstanceOf(CopyException.class)
                .hasMessageContaining("table ft.docs cannot move to target rocks (ROCKSDB)")
                .hasMessageContaining("FULLTEXT");
    }

    private static String checksum(Node node) {
        return CopyFixture.lines(node, "CHECKSUM TABLE types.t").get(0).split("\\|")[1];
    }

    @Test
    void refusesATableWithoutPrimaryKey() {
        source.execute("CREATE DATABASE nokey", "CREATE TABLE nokey.t (a INT)");
        TableCopy copy = fixture.copy(List.of(CopyTable.whole("nokey", "t")), List.of(fixture.target("low", "-")),
                CopySettings.defaults(), Throttle.NEVER, checkpoint -> { });
        assertThatThrownBy(() -> copy.createSchema(false)).isInstanceOf(CopyException.class)
                .hasMessage("table nokey.t has no primary key: the copy reads in primary-key order and the targets"
                        + " need one to apply changes by key");
    }

    private void createOrders(String schema, int rows) {
        source.execute("CREATE DATABASE " + schema, "CREATE TABLE " + schema + ".orders " + ORDERS,
                "INSERT INTO " + schema + ".orders SELECT seq, CONCAT('kunde ü ', seq), seq * 1.25, seq % 7,"
                        + " IF(seq % 3 = 0, NULL, REPEAT('n', seq % 50)) FROM " + schema + ".seq_1_to_" + rows);
    }

    private long count(String shard, String schema) {
        return Long.parseLong(fixture.node(shard).queryString("SELECT COUNT(*) FROM " + schema + ".orders"));
    }

    /** Every source row is on exactly the target that owns its key, with equal values, and nothing else is. */
    private void assertSplitIdentical(String schema) {
        String sql = String.format(ORDER_ROWS, schema);
        Map<String, String> expected = CopyFixture.rows(source, sql);
        Map<String, String> low = CopyFixture.rows(fixture.node("low"), sql);
        Map<String, String> high = CopyFixture.rows(fixture.node("high"), sql);
        assertThat(low.keySet()).allMatch(CopyIT::isLow);
        assertThat(high.keySet()).noneMatch(CopyIT::isLow);
        Map<String, String> union = new TreeMap<>(low);
        union.putAll(high);
        assertThat(union).hasSize(low.size() + high.size());
        assertThat(union).isEqualTo(expected);
    }

    static boolean isLow(String id) {
        return LOW.contains(VINDEX.keyspaceId(VINDEX.keyType().store(SqlValue.ofLong(Long.parseLong(id))).orElseThrow()));
    }

    private static void until(String what, Duration timeout, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting for " + what);
            }
            Thread.sleep(20);
        }
    }
}
