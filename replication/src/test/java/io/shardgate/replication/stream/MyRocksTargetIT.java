package io.shardgate.replication.stream;

import io.shardgate.replication.gtid.MariaDbGtidPosition;
import io.shardgate.replication.topology.Node;
import io.shardgate.storage.Engine;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Engine migration: an InnoDB source streamed to a MyRocks target, whose replayed CREATE TABLEs
 * take its default engine; the position table lives in the same engine as the rows.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MyRocksTargetIT {
    private StreamPair pair;
    private Node source;
    private Node target;

    @BeforeAll
    void start() {
        pair = StreamPair.start(Engine.ROCKSDB, Map.of());
        source = pair.source();
        target = pair.target();
    }

    @AfterAll
    void stop() {
        if (pair != null) {
            pair.close();
        }
    }

    private ChangeStream.Result streamUntilSourceEnd() throws InterruptedException {
        return pair.builder()
                .untilGtid(MariaDbGtidPosition.parse(source.gtidBinlogPos()))
                .workers(2)
                .build()
                .run();
    }

    @Test
    void innodbRowsArriveInMyRocksTablesExactlyOnce() throws Exception {
        source.execute("CREATE DATABASE shop", "CREATE DATABASE audit",
                "CREATE TABLE shop.orders (id BIGINT UNSIGNED PRIMARY KEY, customer VARCHAR(50) CHARACTER SET utf8mb4,"
                        + " total DECIMAL(12,2), placed DATETIME(6), note TEXT, raw VARBINARY(16))",
                "CREATE TABLE audit.log (id INT PRIMARY KEY, what VARCHAR(100))");
        for (int i = 1; i <= 50; i++) {
            source.execute("BEGIN",
                    "INSERT INTO shop.orders VALUES (18446744073709551000 + " + i + ", 'kunde ü😀 " + i + "', "
                            + i + ".25, '2024-01-0" + (1 + i % 9) + " 10:00:00.123456', REPEAT('n', " + i + "), UNHEX('00FF'))",
                    "INSERT INTO audit.log VALUES (" + i + ", 'order " + i + "')", "COMMIT");
        }
        source.execute("UPDATE shop.orders SET total = total * 2 WHERE total < 10", "DELETE FROM audit.log WHERE id % 5 = 0");

        streamUntilSourceEnd();

        assertThat(target.queryString("SELECT GROUP_CONCAT(DISTINCT ENGINE) FROM information_schema.TABLES"
                + " WHERE TABLE_SCHEMA IN ('shop', 'audit', '_shardgate')")).isEqualToIgnoringCase("ROCKSDB");
        TableComparison.assertRowsEqual(source, target, "shop.orders", "id");
        TableComparison.assertRowsEqual(source, target, "audit.log", "id");

        // A second run from the stored position applies only what is new.
        source.execute("INSERT INTO audit.log VALUES (1000, 'late')");
        ChangeStream.Result second = streamUntilSourceEnd();
        assertThat(second.rows()).isEqualTo(1);
        TableComparison.assertRowsEqual(source, target, "audit.log", "id");
    }
}
