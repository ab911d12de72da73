package io.shardgate.storage.it;

import io.shardgate.replication.topology.Node;
import io.shardgate.storage.checksum.ChecksumCommand;
import io.shardgate.storage.checksum.ChecksumResult;
import io.shardgate.storage.checksum.ChecksumTarget;
import io.shardgate.storage.checksum.PkRange;
import io.shardgate.storage.checksum.TableChecksum;
import io.shardgate.storage.checksum.TableName;
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
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The checksum primitive on an InnoDB and a MyRocks server holding the same rows (numbers,
 * decimals, floats, utf8mb4 text with emoji, NULLs and empty strings, temporal values with
 * microseconds, binary and BIT values): equal for the whole table and for every key range, and
 * different as soon as one row differs, including NULL against ''.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class TableChecksumIT {
    private static final int ROWS = 5000;
    private static final TableName ITEMS = TableName.parse("ck.items");

    private EngineShards shards;
    private Node innodb;
    private Node rocksdb;
    private final TableChecksum checksum = new TableChecksum();

    @BeforeAll
    void start() {
        shards = EngineShards.start();
        innodb = shards.innodb();
        rocksdb = shards.rocksdb();
        for (Node node : List.of(innodb, rocksdb)) {
            node.execute("CREATE DATABASE ck",
                    "CREATE TABLE ck.items (id BIGINT UNSIGNED PRIMARY KEY, name VARCHAR(64) CHARACTER SET utf8mb4,"
                            + " note TEXT, price DECIMAL(12,2), ratio DOUBLE, f FLOAT, created DATETIME(6), d DATE,"
                            + " flag TINYINT(1), raw VARBINARY(16), b BIT(8), e ENUM('a','b','c'))",
                    "INSERT INTO ck.items SELECT seq, CONCAT('item ü😀 ', seq),"
                            + " CASE WHEN seq % 7 = 0 THEN NULL WHEN seq % 11 = 0 THEN '' ELSE REPEAT('n', seq % 50) END,"
                            + " seq * 1.25, seq / 3, seq / 7,"
                            + " TIMESTAMP('2024-01-01 00:00:00.000001') + INTERVAL seq SECOND + INTERVAL seq MICROSECOND,"
                            + " DATE('2024-01-01') + INTERVAL (seq % 365) DAY, seq % 2,"
                            + " IF(seq % 13 = 0, NULL, UNHEX(LPAD(HEX(seq), 8, '0'))), seq % 256,"
                            + " ELT(1 + seq % 3, 'a', 'b', 'c')"
                            + " FROM ck.seq_1_to_" + ROWS);
        }
    }

    @AfterAll
    void stop() {
        if (shards != null) {
            shards.close();
        }
    }

    @Test
    @Order(1)
    void sameRowsGiveTheSameChecksumOnBothEngines() throws SQLException {
        ChecksumResult inno = checksum(innodb, PkRange.all());
        ChecksumResult rocks = checksum(rocksdb, PkRange.all());
        assertThat(inno.rows()).isEqualTo(ROWS);
        assertThat(rocks).isEqualTo(inno);
        assertThat(inno.checksum()).isNotZero();
        for (int lower = 1; lower <= ROWS; lower += 1000) {
            PkRange range = PkRange.of(lower, lower + 1000);
            assertThat(checksum(rocksdb, range)).as("range from " + lower).isEqualTo(checksum(innodb, range));
            assertThat(checksum(innodb, range).rows()).isEqualTo(1000);
        }
    }

    @Test
    @Order(2)
    void oneChangedRowIsFoundAndLocated() throws SQLException {
        rocksdb.execute("UPDATE ck.items SET name = 'changed' WHERE id = 2345");
        try {
            assertThat(checksum(rocksdb, PkRange.all())).isNotEqualTo(checksum(innodb, PkRange.all()));
            for (int lower = 1; lower <= ROWS; lower += 1000) {
                PkRange range = PkRange.of(lower, lower + 1000);
                boolean holdsTheRow = lower <= 2345 && 2345 < lower + 1000;
                assertThat(checksum(rocksdb, range).equals(checksum(innodb, range))).as("range from " + lower)
                        .isEqualTo(!holdsTheRow);
            }
        } finally {
            rocksdb.execute("UPDATE ck.items SET name = CONCAT('item ü😀 ', id) WHERE id = 2345");
        }
        assertThat(checksum(rocksdb, PkRange.all())).isEqualTo(checksum(innodb, PkRange.all()));
    }

    @Test
    @Order(3)
    void nullIsNotTheEmptyString() throws SQLException {
        assertThat(innodb.queryString("SELECT note FROM ck.items WHERE id = 11")).isEmpty();
        innodb.execute("UPDATE ck.items SET note = NULL WHERE id = 11");
        try {
            assertThat(checksum(innodb, PkRange.of(11, 12))).isNotEqualTo(checksum(rocksdb, PkRange.of(11, 12)));
        } finally {
            innodb.execute("UPDATE ck.items SET note = '' WHERE id = 11");
        }
        assertThat(checksum(innodb, PkRange.of(11, 12))).isEqualTo(checksum(rocksdb, PkRange.of(11, 12)));
    }

    @Test
    @Order(4)
    void theCommandPrintsEachShardAndTheLogicalTable() throws SQLException {
        // Two shards of one logical table: the lower half of the keys on s0, the upper on s1.
        innodb.execute("DELETE FROM ck.items WHERE id > 2500");
        rocksdb.execute("DELETE FROM ck.items WHERE id <= 2500");
        ChecksumResult lower = checksum(innodb, PkRange.all());
        ChecksumResult upper = checksum(rocksdb, PkRange.all());

        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = new ChecksumCommand().run(List.of(target("s0", innodb), target("s1", rocksdb)), "ck.items",
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        assertThat(err.toString(StandardCharsets.UTF_8)).isEmpty();
        assertThat(exit).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8).split("\n")).containsExactly(
                "s0\t2500\t" + lower.hex(),
                "s1\t2500\t" + upper.hex(),
                "ck.items\t5000\t" + lower.combine(upper).hex());

        rocksdb.execute("ALTER TABLE ck.items ADD COLUMN extra INT");
        err.reset();
        exit = new ChecksumCommand().run(List.of(target("s0", innodb), target("s1", rocksdb)), "ck.items",
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        assertThat(exit).isEqualTo(1);
        assertThat(err.toString(StandardCharsets.UTF_8)).startsWith("checksum: shards s0 and s1 disagree on the columns of ck.items");

        err.reset();
        exit = new ChecksumCommand().run(List.of(target("s0", innodb)), "ck.missing",
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        assertThat(exit).isEqualTo(1);
        assertThat(err.toString(StandardCharsets.UTF_8)).isEqualTo("checksum: shard s0: table ck.missing does not exist\n");
    }

    private ChecksumTarget target(String shard, Node node) {
        return new ChecksumTarget(shard, node.jdbcUrl(), shards.topology().accounts().user(),
                shards.topology().accounts().password());
    }

    private ChecksumResult checksum(Node node, PkRange range) throws SQLException {
        try (Connection connection = node.connect()) {
            return checksum.checksum(connection, ITEMS, range);
        }
    }
}
