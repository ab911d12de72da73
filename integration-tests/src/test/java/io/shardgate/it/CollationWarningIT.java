package io.shardgate.it;

import io.shardgate.replication.topology.Node;
import io.shardgate.replication.topology.Topology;
import io.shardgate.replication.topology.TopologySpec;
import io.shardgate.storage.Engine;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * MyRocks' collation warning 1815 reaches the client through Shardgate (issue 9, item 3). With
 * {@code rocksdb_strict_collation_check} ON (the default), MariaDB 10.11 creates a RocksDB table
 * whose indexed VARCHAR has a non-binary collation, but warns with 1815 (upstream MyRocks refuses
 * it); InnoDB says nothing. A sharded CREATE TABLE runs on both shards: its OK counts the warning,
 * and SHOW WARNINGS right after it lists the MyRocks shard's warning.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CollationWarningIT {
    private static final String CONFIG = """
            schemas:
              - name: cw
                tables:
                  people: { shard_key: id, vindex: hash }
                  codes:  { shard_key: id, vindex: hash }
            """;
    private static final String PEOPLE = "CREATE TABLE people (id BIGINT PRIMARY KEY, name VARCHAR(40), KEY k_name (name))";

    private Topology topology;
    private ProxyFixture proxy;

    @BeforeAll
    void start() {
        topology = Topology.start(TopologySpec.builder()
                .shard("s0", Engine.INNODB, 0)
                .shard("s1", Engine.ROCKSDB, 0)
                .build());
        topology.shard("s0").primary().execute("CREATE DATABASE cw");
        topology.shard("s1").primary().execute("CREATE DATABASE cw", "CREATE DATABASE ctl");
        proxy = ProxyFixture.start(topology, ProxyFixture.HALVES, CONFIG);
    }

    @AfterAll
    void stop() {
        ProxyFixture.stop(proxy, topology);
    }

    @Test
    void myRocksWarnsDirectlyAboutANonBinaryCollationOnAnIndexedColumn() throws SQLException {
        Node s1 = topology.shard("s1").primary();
        assertThat(s1.queryString("SELECT @@rocksdb_strict_collation_check")).isEqualTo("1");
        try (Connection c = s1.connect(); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE ctl.people (id BIGINT PRIMARY KEY, name VARCHAR(40), KEY k_name (name))");
            assertThat(warnings(s)).singleElement().satisfies(w -> {
                assertThat(w.getErrorCode()).isEqualTo(1815);
                assertThat(w.getMessage()).contains("ctl.people.name").contains("collation");
            });
        }
        assertThat(s1.queryString("SELECT ENGINE FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'ctl' AND TABLE_NAME = 'people'"))
                .as("created despite the warning").isEqualTo("ROCKSDB");
    }

    @Test
    void shardedCreateTableRelaysTheMyRocksShardsWarning() throws SQLException {
        try (Connection c = proxy.mariadb("cw", ""); Statement s = c.createStatement()) {
            s.execute(PEOPLE);
            assertThat(s.getUpdateCount()).isZero();
            assertThat(warnings(s)).singleElement().satisfies(w -> {
                assertThat(w.getErrorCode()).isEqualTo(1815);
                assertThat(w.getMessage()).contains("cw.people.name").contains("collation");
            });
            // The same through SHOW WARNINGS and @@warning_count, as the mariadb client shows them.
            s.execute("DROP TABLE people");
            s.execute(PEOPLE);
            try (ResultSet rows = s.executeQuery("SHOW WARNINGS")) {
                List<String> shown = new ArrayList<>();
                while (rows.next()) {
                    shown.add(rows.getString(1) + " " + rows.getInt(2) + " " + rows.getString(3));
                }
                assertThat(shown).singleElement().asString().startsWith("Warning 1815 ").contains("cw.people.name");
            }
        }
        for (String shard : List.of("s0", "s1")) {
            assertThat(topology.shard(shard).primary().queryString("SELECT COUNT(*) FROM information_schema.TABLES"
                    + " WHERE TABLE_SCHEMA = 'cw' AND TABLE_NAME = 'people'")).as("people on %s", shard).isEqualTo("1");
        }
    }

    @Test
    void aCollationMyRocksIndexesWholeGivesNoWarning() throws SQLException {
        // utf8mb4_bin is not one of them: it warns as well.
        try (Connection c = proxy.mariadb("cw", ""); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE codes (id BIGINT PRIMARY KEY, code VARCHAR(40) CHARACTER SET latin1 COLLATE latin1_bin, KEY k_code (code))");
            assertThat(warnings(s)).isEmpty();
        }
    }

    private static List<SQLWarning> warnings(Statement statement) throws SQLException {
        List<SQLWarning> all = new ArrayList<>();
        for (SQLWarning w = statement.getWarnings(); w != null; w = w.getNextWarning()) {
            all.add(w);
        }
        return all;
    }
}
