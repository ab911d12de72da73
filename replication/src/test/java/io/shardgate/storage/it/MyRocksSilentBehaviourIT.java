package io.shardgate.storage.it;

import io.shardgate.replication.topology.Node;
import io.shardgate.storage.Engine;
import io.shardgate.storage.capability.EngineCapabilities;
import io.shardgate.errors.ErrorCode;
import io.shardgate.storage.ddl.DdlValidator;
import io.shardgate.storage.ddl.DdlVerdict;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The control check: statements the validator refuses for a MyRocks shard, sent straight to the
 * MyRocks server, succeed and silently do not do what they say. That is why the validator
 * refuses them before any shard sees them. The same statements on InnoDB, for contrast, do.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MyRocksSilentBehaviourIT {
    private static final int ROWS = 20_000;

    private EngineShards shards;
    private Node innodb;
    private Node rocksdb;
    private EngineCapabilities rocksdbCapabilities;
    private final DdlValidator validator = new DdlValidator();
    private final List<String> measurements = new ArrayList<>();

    @BeforeAll
    void start() {
        shards = EngineShards.start();
        innodb = shards.innodb();
        rocksdb = shards.rocksdb();
        rocksdbCapabilities = shards.capabilities(Engine.ROCKSDB);
        for (Node node : List.of(innodb, rocksdb)) {
            node.execute("CREATE DATABASE silent", "CREATE TABLE silent.p (id INT PRIMARY KEY)",
                    "INSERT INTO silent.p VALUES (1)");
        }
    }

    @AfterAll
    void stop() {
        measurements.forEach(line -> System.out.println("[silent-it] " + line));
        if (shards != null) {
            shards.close();
        }
    }

    @Test
    void inlineReferencesIsAcceptedAndDroppedByMyRocks() {
        String create = "CREATE TABLE silent.c (id INT PRIMARY KEY, pid INT REFERENCES p(id))";
        assertRefused(create, ErrorCode.FOREIGN_KEY_UNSUPPORTED);

        rocksdb.execute(create);
        assertThat(rocksdb.queryString("SELECT COUNT(*) FROM information_schema.REFERENTIAL_CONSTRAINTS"
                + " WHERE CONSTRAINT_SCHEMA = 'silent'")).isEqualTo("0");
        assertThat(showCreate(rocksdb, "silent.c")).doesNotContainIgnoringCase("REFERENCES");
        rocksdb.execute("INSERT INTO silent.c VALUES (1, 999)");
        assertThat(rocksdb.queryString("SELECT pid FROM silent.c WHERE id = 1")).as("an orphan row").isEqualTo("999");

        // InnoDB creates the key and enforces it.
        innodb.execute(create);
        assertThat(innodb.queryString("SELECT COUNT(*) FROM information_schema.REFERENTIAL_CONSTRAINTS"
                + " WHERE CONSTRAINT_SCHEMA = 'silent'")).isEqualTo("1");
        assertThatThrownBy(() -> innodb.execute("INSERT INTO silent.c VALUES (1, 999)"))
                .hasMessageContaining("foreign key constraint fails");
    }

    @Test
    void rowCompressionIsStoredAndIgnoredByMyRocks() throws SQLException {
        String compressed = "CREATE TABLE silent.z (id INT PRIMARY KEY, v VARCHAR(500)) ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=8";
        assertRefused(compressed, ErrorCode.TABLE_OPTION_UNSUPPORTED);

        long plainRocks = filledSize(rocksdb, "CREATE TABLE silent.zplain (id INT PRIMARY KEY, v VARCHAR(500))", "silent.zplain");
        long compressedRocks = filledSize(rocksdb, compressed, "silent.z");
        assertThat(showCreate(rocksdb, "silent.z")).contains("ROW_FORMAT=COMPRESSED").contains("KEY_BLOCK_SIZE=8");
        long plainInno = filledSize(innodb, "CREATE TABLE silent.zplain (id INT PRIMARY KEY, v VARCHAR(500))", "silent.zplain");
        long compressedInno = filledSize(innodb, compressed, "silent.z");
        measurements.add(String.format("%d rows: MyRocks plain %d B, 'compressed' %d B; InnoDB plain %d B, compressed %d B",
                ROWS, plainRocks, compressedRocks, plainInno, compressedInno));
        assertThat((double) compressedRocks / plainRocks).as("MyRocks: no effect").isBetween(0.9, 1.1);
        assertThat((double) compressedInno / plainInno).as("InnoDB: compresses").isLessThan(0.75);
    }

    @Test
    void pageCompressionIsCarriedIntoMyRocksByAnEngineChange() {
        rocksdb.execute("CREATE TABLE silent.pc (id INT PRIMARY KEY) ENGINE=InnoDB PAGE_COMPRESSED=1",
                "ALTER TABLE silent.pc ENGINE=ROCKSDB");
        assertThat(showCreate(rocksdb, "silent.pc")).contains("ENGINE=ROCKSDB").containsIgnoringCase("`page_compressed`='1'");
        // Written directly for MyRocks, the option is refused by the server itself ...
        assertThatThrownBy(() -> rocksdb.execute("CREATE TABLE silent.pc2 (id INT PRIMARY KEY) PAGE_COMPRESSED=1"))
                .message().containsIgnoringCase("Unknown option 'page_compressed'");
        // ... and by the validator, which names the shard and the clause.
        assertRefused("CREATE TABLE silent.pc2 (id INT PRIMARY KEY) PAGE_COMPRESSED=1", ErrorCode.TABLE_OPTION_UNSUPPORTED);
    }

    private void assertRefused(String sql, ErrorCode code) {
        DdlVerdict verdict = validator.validate(sql, rocksdbCapabilities, "s1", false);
        assertThat(verdict).isInstanceOf(DdlVerdict.Refused.class);
        assertThat(((DdlVerdict.Refused) verdict).code()).isEqualTo(code);
    }

    /** Creates a table, fills it with compressible rows, flushes, and returns its size on disk. */
    private static long filledSize(Node node, String create, String table) throws SQLException {
        node.execute(create);
        try (Connection connection = node.connect(); Statement statement = connection.createStatement()) {
            statement.execute("USE silent");
            statement.execute("INSERT INTO " + table + " SELECT seq, CONCAT(REPEAT('shardgate compressible row ', 15),"
                    + " seq) FROM seq_1_to_" + ROWS);
            if (node.engine().equals(Engine.ROCKSDB)) {
                statement.execute("SET GLOBAL rocksdb_force_flush_memtable_now = 1");
                statement.execute("ANALYZE TABLE " + table);
                String[] parts = table.split("\\.");
                return Long.parseLong(node.queryString("SELECT DATA_LENGTH + INDEX_LENGTH FROM information_schema.TABLES"
                        + " WHERE TABLE_SCHEMA = '" + parts[0] + "' AND TABLE_NAME = '" + parts[1] + "'"));
            }
            statement.execute("FLUSH TABLES " + table + " FOR EXPORT");
            statement.execute("UNLOCK TABLES");
            return Long.parseLong(node.queryString("SELECT FILE_SIZE FROM information_schema.INNODB_SYS_TABLESPACES"
                    + " WHERE NAME = '" + table.replace('.', '/') + "'"));
        }
    }

    private static String showCreate(Node node, String table) {
        try (Connection connection = node.connect(); Statement statement = connection.createStatement();
             var rows = statement.executeQuery("SHOW CREATE TABLE " + table)) {
            rows.next();
            return rows.getString(2);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
