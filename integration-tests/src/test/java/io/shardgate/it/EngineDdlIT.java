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

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * DDL checked against a MyRocks shard's engine before it reaches the server: what MyRocks would
 * silently drop or ignore is refused with the shard, engine and clause named; an ALTER that would
 * block writes is refused until the session allows it.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class EngineDdlIT {
    private Topology topology;
    private ProxyFixture proxy;
    private Node primary;

    @BeforeAll
    void start() {
        topology = Topology.start(TopologySpec.builder().shard("s0", Engine.ROCKSDB, 0).build());
        primary = topology.shard("s0").primary();
        primary.execute("CREATE DATABASE ddl");
        // Every blocking DDL needs the session's consent here, however small its table (DdlCostIT tests the bounds).
        proxy = ProxyFixture.start(topology, "ddl: { blocking_max_rows: 0, blocking_max_bytes: 0 }\n");
    }

    @AfterAll
    void stop() {
        ProxyFixture.stop(proxy, topology);
    }

    private boolean tableExists(String table) {
        return primary.queryString("SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'ddl' AND TABLE_NAME = '"
                + table + "'").equals("1");
    }

    @Test
    void whatMyRocksWouldSilentlyIgnoreIsRefused() throws Exception {
        try (Connection c = proxy.mariadb("ddl", ""); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE parent (id INT PRIMARY KEY) ENGINE=ROCKSDB");
            assertThatThrownBy(() -> s.execute("CREATE TABLE child (id INT PRIMARY KEY, p INT REFERENCES parent(id))"))
                    .isInstanceOf(SQLException.class)
                    .satisfies(e -> assertThat(((SQLException) e).getErrorCode()).isEqualTo(1235))
                    .hasMessageContaining("s0").hasMessageContaining("foreign key");
            assertThat(tableExists("child")).isFalse();
            assertThatThrownBy(() -> s.execute("CREATE TABLE small (id INT PRIMARY KEY) ROW_FORMAT=COMPRESSED KEY_BLOCK_SIZE=8"))
                    .satisfies(e -> assertThat(((SQLException) e).getErrorCode()).isEqualTo(1478))
                    .hasMessageContaining("s0");
            assertThat(tableExists("small")).isFalse();
            assertThatThrownBy(() -> s.execute("CREATE TABLE docs (id INT PRIMARY KEY, body TEXT, FULLTEXT (body))"))
                    .satisfies(e -> assertThat(((SQLException) e).getErrorCode()).isEqualTo(1214));
            assertThat(tableExists("docs")).isFalse();
        }
    }

    @Test
    void anAlterThatBlocksWritesNeedsTheSessionsConsent() throws Exception {
        try (Connection c = proxy.mariadb("ddl", ""); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE items (id INT PRIMARY KEY, v INT)");
            s.execute("INSERT INTO items VALUES (1, 1), (2, 2)");
            assertThatThrownBy(() -> s.execute("ALTER TABLE items ADD INDEX by_v (v)"))
                    .satisfies(e -> assertThat(((SQLException) e).getErrorCode()).isEqualTo(1846))
                    .hasMessageContaining("blocks writes on shard s0");
            assertThat(primary.queryString("SELECT COUNT(*) FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = 'ddl'"
                    + " AND TABLE_NAME = 'items' AND INDEX_NAME = 'by_v'")).isEqualTo("0");
            s.execute("SET SESSION shardgate_allow_blocking_ddl = ON");
            s.execute("ALTER TABLE items ADD INDEX by_v (v)");
            assertThat(primary.queryString("SELECT COUNT(*) FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = 'ddl'"
                    + " AND TABLE_NAME = 'items' AND INDEX_NAME = 'by_v'")).isEqualTo("1");
        }
    }

    @Test
    void aPreparedDdlStatementIsCheckedAsATextOneIs() throws Exception {
        try (Connection c = proxy.mariadb("ddl", "useServerPrepStmts=true"); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE IF NOT EXISTS parent (id INT PRIMARY KEY) ENGINE=ROCKSDB");
            assertThatThrownBy(() -> {
                try (java.sql.PreparedStatement create = c.prepareStatement(
                        "CREATE TABLE child2 (id INT PRIMARY KEY, p INT REFERENCES parent(id))")) {
                    create.execute();
                }
            }).isInstanceOf(SQLException.class)
                    .satisfies(e -> assertThat(((SQLException) e).getErrorCode()).isEqualTo(1235))
                    .hasMessageContaining("foreign key");
            assertThat(tableExists("child2")).isFalse();
        }
    }
}
