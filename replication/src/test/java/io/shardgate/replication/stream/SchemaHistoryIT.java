package io.shardgate.replication.stream;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.shardgate.replication.gtid.MariaDbGtidPosition;
import io.shardgate.replication.topology.Node;
import io.shardgate.storage.Engine;
import io.shardgate.storage.checksum.ChecksumResult;
import io.shardgate.storage.checksum.PkRange;
import io.shardgate.storage.checksum.TableChecksum;
import io.shardgate.storage.checksum.TableName;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import static io.shardgate.replication.stream.TableComparison.assertSameTable;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A backlog that spans DDL, from a source that logs no column names (MariaDB's default
 * {@code binlog_row_metadata=NO_LOG}): the stream reads each row with the columns it was written
 * with, from its schema history, also when it stops and resumes in the middle of the backlog.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SchemaHistoryIT {
    private StreamPair pair;
    private Node source;
    private Node target;
    private final List<String> notices = new CopyOnWriteArrayList<>();

    @BeforeAll
    void start() {
        pair = StreamPair.start(Engine.INNODB, Map.of("binlog_row_metadata", "NO_LOG"));
        source = pair.source();
        target = pair.target();
    }

    @AfterAll
    void stop() {
        if (pair != null) {
            pair.close();
        }
    }

    private ChangeStream.Result streamUntil(MariaDbGtidPosition end) throws InterruptedException {
        ChangeStream.Result result = pair.builder().registry(new SimpleMeterRegistry()).workers(2)
                .notices(notices::add).untilGtid(end).build().run();
        assertThat(result.applied().hasReached(end)).as("applied " + result.applied() + " reaches " + end).isTrue();
        return result;
    }

    private MariaDbGtidPosition sourceEnd() {
        return MariaDbGtidPosition.parse(source.gtidBinlogPos());
    }

    @Test
    void aBacklogSpanningDdlAppliesWithoutColumnNamesInTheBinlog() throws Exception {
        assertThat(source.queryString("SELECT @@binlog_row_metadata")).isEqualTo("NO_LOG");
        source.execute("CREATE DATABASE hist",
                "CREATE TABLE hist.t (id INT PRIMARY KEY, a VARCHAR(20) CHARACTER SET latin1, b INT UNSIGNED NOT NULL,"
                        + " c VARCHAR(20) CHARACTER SET utf8mb4)",
                "INSERT INTO hist.t VALUES (1, 'caf\u00e9', 4000000000, 'na\u00efve'), (2, 'x', 1, 'y')");
        streamUntil(sourceEnd());
        assertSameTable(source, target, "hist.t", "id");

        // The stream is stopped; the source moves on through DDL.
        source.execute("INSERT INTO hist.t VALUES (3, '\u00e9t\u00e9', 4000000001, '\u2603'), (4, 'four', 4, 'vier')",
                "ALTER TABLE hist.t ADD COLUMN x INT NULL",
                "INSERT INTO hist.t VALUES (5, 'five', 5, 'f\u00fcnf', 55)",
                "UPDATE hist.t SET x = id * 10 WHERE id <= 2");
        MariaDbGtidPosition middle = sourceEnd();
        source.execute("ALTER TABLE hist.t DROP COLUMN a",
                "INSERT INTO hist.t VALUES (6, 6, 'sechs', 66)",
                "ALTER TABLE hist.t RENAME COLUMN c TO label",
                "ALTER TABLE hist.t MODIFY b BIGINT UNSIGNED NOT NULL AFTER label",
                "UPDATE hist.t SET label = CONCAT(label, '!'), b = b + 1 WHERE id IN (1, 3)",
                "DELETE FROM hist.t WHERE id = 2",
                "CREATE TABLE hist.u LIKE hist.t",
                "INSERT INTO hist.u SELECT * FROM hist.t",
                "RENAME TABLE hist.u TO hist.u2",
                "ALTER TABLE hist.u2 ADD COLUMN (p INT, q VARCHAR(3))",
                "INSERT INTO hist.u2 (id, label, b, x, p, q) VALUES (9, 'nine', 9, 9, 9, 'n')",
                "UPDATE hist.u2 SET q = 'one' WHERE id = 1");

        // Half the backlog, then a restart at the stored watermark: the history resumes as of there.
        streamUntil(middle);
        assertThat(target.queryString("SELECT COUNT(*) FROM information_schema.COLUMNS"
                + " WHERE TABLE_SCHEMA = 'hist' AND TABLE_NAME = 't'")).isEqualTo("5");
        streamUntil(sourceEnd());
        assertThat(notices).anyMatch(n -> n.contains("from the history stored on the target"));

        assertSameTable(source, target, "hist.t", "id");
        assertSameTable(source, target, "hist.u2", "id");
        assertThat(checksum(target, "t")).isEqualTo(checksum(source, "t"));
        assertThat(checksum(target, "u2")).isEqualTo(checksum(source, "u2"));
        assertThat(target.queryString("SELECT label FROM hist.t WHERE id = 3")).isEqualTo("\u2603!");
        assertThat(target.queryString("SELECT b FROM hist.t WHERE id = 1")).isEqualTo("4000000001");
        // Compact: versions the watermark passed are pruned, one row per table is left.
        assertThat(target.queryString("SELECT COUNT(*) FROM _shardgate.schema_history WHERE schema_name = 'hist'"))
                .isEqualTo(target.queryString("SELECT COUNT(DISTINCT table_name) FROM _shardgate.schema_history"
                        + " WHERE schema_name = 'hist'"));
    }

    private static ChecksumResult checksum(Node node, String table) throws SQLException {
        try (Connection connection = node.connect()) {
            return new TableChecksum().checksum(connection, new TableName("hist", table), PkRange.all());
        }
    }
}
