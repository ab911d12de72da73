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
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The blocking-DDL guard by cost on a MyRocks shard, with the default bounds: sysbench's prepare (a
 * 10,000-row table, then CREATE INDEX k_1, which blocks writes on MyRocks) runs through Shardgate
 * without the session flag; the same kind of statement on a table of a million rows is still refused,
 * with its size and the bounds in the message, until the session consents.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DdlCostIT {
    private static final int BIG_ROWS = 1_000_000;

    private Topology topology;
    private ProxyFixture proxy;
    private Node primary;

    @BeforeAll
    void start() {
        topology = Topology.start(TopologySpec.builder().shard("s0", Engine.ROCKSDB, 0).build());
        primary = topology.shard("s0").primary();
        primary.execute("CREATE DATABASE sbtest", "CREATE DATABASE cost");
        proxy = ProxyFixture.start(topology, "");
    }

    @AfterAll
    void stop() {
        ProxyFixture.stop(proxy, topology);
    }

    private boolean indexExists(String schema, String table, String index) {
        return !"0".equals(primary.queryString("SELECT COUNT(*) FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = '" + schema
                + "' AND TABLE_NAME = '" + table + "' AND INDEX_NAME = '" + index + "'"));
    }

    @Test
    void sysbenchPrepareOnMyRocksAddsItsIndexWithoutTheFlag() throws Exception {
        Cli.Result prepare = Cli.run(List.of("sysbench", "oltp_read_write", "--db-driver=mysql", "--mysql-host=127.0.0.1",
                "--mysql-port=" + proxy.port(), "--mysql-user=" + ProxyFixture.USER, "--mysql-password=" + ProxyFixture.PASSWORD,
                "--mysql-db=sbtest", "prepare"), null, 180);
        assertThat(prepare.status()).as(prepare.stdout() + prepare.stderr()).isZero();
        assertThat(prepare.stdout()).contains("Inserting 10000 records into 'sbtest1'").contains("Creating a secondary index on 'sbtest1'");
        assertThat(primary.queryString("SELECT ENGINE FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'sbtest'"
                + " AND TABLE_NAME = 'sbtest1'")).isEqualTo("ROCKSDB");
        assertThat(indexExists("sbtest", "sbtest1", "k_1")).isTrue();
    }

    @Test
    void aFreshlyLoadedTableIsNotTakenForAnEmptyOne() throws SQLException {
        // MyRocks caches its memtable's statistics for a minute: right after this load they still say 0 rows.
        primary.execute("CREATE TABLE cost.fresh (id BIGINT PRIMARY KEY, k INT NOT NULL) ENGINE=ROCKSDB");
        for (int start = 0; start < 100_000; start += 5_000) {
            primary.execute("INSERT INTO cost.fresh SELECT seq, seq % 100 FROM cost.seq_" + (start + 1) + "_to_" + (start + 5_000));
        }
        try (Connection c = proxy.mariadb("cost", ""); Statement s = c.createStatement()) {
            assertThatThrownBy(() -> s.execute("ALTER TABLE fresh ADD INDEX by_k (k)"))
                    .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getErrorCode()).isEqualTo(1846))
                    .hasMessageMatching("(?s).*table `cost`.`fresh` there holds (about [0-9]{6}|more than 15000) rows.*");
            assertThat(indexExists("cost", "fresh", "by_k")).isFalse();
        }
    }

    @Test
    void aMillionRowTableStillNeedsTheSessionsConsent() throws SQLException {
        primary.execute("CREATE TABLE cost.big (id BIGINT PRIMARY KEY, k INT NOT NULL, pad CHAR(60) NOT NULL) ENGINE=ROCKSDB",
                "SET SESSION rocksdb_commit_in_the_middle = ON",
                "INSERT INTO cost.big SELECT seq, seq % 1000, 'p' FROM cost.seq_1_to_" + BIG_ROWS);
        try (Connection c = proxy.mariadb("cost", ""); Statement s = c.createStatement()) {
            assertThatThrownBy(() -> s.execute("ALTER TABLE big ADD INDEX by_k (k)"))
                    .isInstanceOfSatisfying(SQLException.class, e -> {
                        assertThat(e.getErrorCode()).isEqualTo(1846);
                        assertThat(e.getSQLState()).isEqualTo("0A000");
                    })
                    .hasMessageContaining("blocks writes on shard s0 (ROCKSDB)")
                    .hasMessageMatching("(?s).*table `cost`.`big` there holds (about [0-9]{6,7}|more than 15000) rows and about [0-9]+ bytes.*")
                    .hasMessageContaining("above the 15000 rows or 4194304 bytes")
                    .hasMessageContaining("SET SESSION shardgate_allow_blocking_ddl = ON");
            assertThat(indexExists("cost", "big", "by_k")).isFalse();
            assertThatThrownBy(() -> s.execute("CREATE INDEX by_k ON cost.big (k)"))
                    .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getErrorCode()).isEqualTo(1846));
            // A small table in the same session and schema: below both bounds, no consent needed.
            s.execute("CREATE TABLE small (id INT PRIMARY KEY, k INT NOT NULL) ENGINE=ROCKSDB");
            s.execute("INSERT INTO small SELECT seq, seq FROM seq_1_to_100");
            s.execute("ALTER TABLE small ADD INDEX by_k (k)");
            assertThat(indexExists("cost", "small", "by_k")).isTrue();
            assertThat(indexExists("cost", "big", "by_k")).isFalse();
        }
    }
}
