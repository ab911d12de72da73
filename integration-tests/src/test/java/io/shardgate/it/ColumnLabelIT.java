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
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Shardgate rewrites {@code CONNECTION_ID()} and {@code @@transaction_isolation}; the column a
 * client reads by label keeps the name one MariaDB gives the item as written, through both
 * drivers, unsharded and sharded (where the planner plans the rewritten text).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ColumnLabelIT {
    private static final String SHARDED_CONFIG = """
            schemas:
              - name: lbl
                tables:
                  t: { shard_key: id, vindex: hash }
            """;

    private Topology topology;
    private ProxyFixture unsharded;
    private ProxyFixture sharded;

    @BeforeAll
    void start() throws SQLException {
        topology = Topology.start(TopologySpec.builder()
                .shard("s0", Engine.INNODB, 0)
                .shard("s1", Engine.INNODB, 0)
                .shard("u", Engine.INNODB, 0)
                .build());
        for (String shard : List.of("s0", "s1", "u")) {
            Node node = topology.shard(shard).primary();
            node.execute("CREATE DATABASE lbl", "CREATE TABLE lbl.t (id BIGINT PRIMARY KEY)");
        }
        Map<String, Map<String, String>> unshardedKeys = new LinkedHashMap<>();
        unshardedKeys.put("u", Map.of());
        unsharded = ProxyFixture.start(topology, unshardedKeys, "");
        sharded = ProxyFixture.start(topology, ProxyFixture.HALVES, SHARDED_CONFIG);
        for (ProxyFixture proxy : List.of(unsharded, sharded)) {
            try (Connection connection = proxy.mariadb("lbl", ""); Statement statement = connection.createStatement()) {
                statement.execute("INSERT INTO t (id) VALUES (1), (2), (3), (4)");
            }
        }
    }

    @AfterAll
    void stop() {
        if (unsharded != null) {
            unsharded.close();
        }
        ProxyFixture.stop(sharded, topology);
    }

    @Test
    void rewrittenItemsKeepTheirNames() throws Exception {
        for (ProxyFixture proxy : List.of(unsharded, sharded)) {
            String deployment = proxy == unsharded ? "unsharded" : "sharded";
            for (String driver : List.of("mariadb", "mysql")) {
                try (Connection connection = driver.equals("mariadb") ? proxy.mariadb("lbl", "") : proxy.mysql("lbl", "");
                     Statement statement = connection.createStatement()) {
                    String where = deployment + " " + driver + ": ";
                    long id = Long.parseLong(single(statement, "SELECT CONNECTION_ID() AS id", "id", where));
                    assertThat(id).as(where).isPositive();
                    assertThat(single(statement, "SELECT CONNECTION_ID()", "CONNECTION_ID()", where)).isEqualTo(Long.toString(id));
                    assertThat(single(statement, "SELECT CONNECTION_ID() > 0", "CONNECTION_ID() > 0", where)).isEqualTo("1");
                    assertThat(single(statement, "SELECT * FROM (SELECT CONNECTION_ID()) d", "CONNECTION_ID()", where))
                            .isEqualTo(Long.toString(id));
                    assertThat(single(statement, "SELECT @@transaction_isolation", "@@transaction_isolation", where))
                            .isEqualTo("REPEATABLE-READ");
                    // A planned statement over the sharded table (scattered when sharded).
                    try (ResultSet rows = statement.executeQuery("SELECT CONNECTION_ID(), id FROM t ORDER BY id")) {
                        assertThat(rows.getMetaData().getColumnLabel(1)).as(where).isEqualTo("CONNECTION_ID()");
                        int count = 0;
                        while (rows.next()) {
                            assertThat(rows.getLong("CONNECTION_ID()")).as(where).isEqualTo(id);
                            count++;
                        }
                        assertThat(count).as(where).isEqualTo(4);
                    }
                }
            }
        }
    }

    /** The one row's one column of {@code sql}, whose label must be {@code label}. */
    private static String single(Statement statement, String sql, String label, String where) throws SQLException {
        try (ResultSet rows = statement.executeQuery(sql)) {
            assertThat(rows.getMetaData().getColumnCount()).as(where + sql).isEqualTo(1);
            assertThat(rows.getMetaData().getColumnLabel(1)).as(where + sql).isEqualTo(label);
            assertThat(rows.next()).as(where + sql).isTrue();
            String value = rows.getString(label);
            assertThat(rows.next()).as(where + sql).isFalse();
            return value;
        }
    }
}
