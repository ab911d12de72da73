package io.shardgate.it;

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
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A sharded deployment (an InnoDB and a MyRocks shard) as clients see their session: multi-statements
 * run statement by statement and answer as one multi-result response (an error ends the batch), and
 * the process list is Shardgate's sessions.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ShardedSessionIT {
    private static final String CONFIG = """
            schemas:
              - name: ms
                tables:
                  items: { shard_key: id, vindex: hash }
            """;

    private Topology topology;
    private ProxyFixture proxy;

    @BeforeAll
    void start() {
        topology = Topology.start(TopologySpec.builder().shard("s0", Engine.INNODB, 0).shard("s1", Engine.ROCKSDB, 0).build());
        for (String shard : List.of("s0", "s1")) {
            topology.shard(shard).primary().execute("CREATE DATABASE ms", "CREATE TABLE ms.items (id INT PRIMARY KEY, v INT)");
        }
        proxy = ProxyFixture.start(topology, ProxyFixture.HALVES, CONFIG);
    }

    @AfterAll
    void stop() {
        ProxyFixture.stop(proxy, topology);
    }

    /** Every result of {@code sql}: a result set as its rows' first column joined by commas, an update count as {@code #n}. */
    private static List<String> results(Statement s, String sql) throws SQLException {
        List<String> results = new ArrayList<>();
        boolean isResultSet = s.execute(sql);
        while (true) {
            if (isResultSet) {
                List<String> values = new ArrayList<>();
                try (ResultSet rows = s.getResultSet()) {
                    while (rows.next()) {
                        values.add(rows.getString(1));
                    }
                }
                results.add(String.join(",", values));
            } else if (s.getUpdateCount() >= 0) {
                results.add("#" + s.getUpdateCount());
            } else {
                return results;
            }
            isResultSet = s.getMoreResults();
        }
    }

    @Test
    void multiStatementsRunInOrderAcrossShards() throws Exception {
        try (Connection c = proxy.mariadb("ms", "allowMultiQueries=true"); Statement s = c.createStatement()) {
            assertThat(results(s, "SELECT 1; SELECT 2")).containsExactly("1", "2");
            assertThat(results(s, "INSERT INTO items (id, v) VALUES (1, 10), (2, 20), (3, 30); UPDATE items SET v = v + 1 WHERE id = 2;"
                    + " SELECT SUM(v) FROM items; SELECT id FROM items ORDER BY id"))
                    .containsExactly("#3", "#1", "61", "1,2,3");
            assertThatThrownBy(() -> results(s, "INSERT INTO items (id, v) VALUES (4, 40); SELECT * FROM nope; INSERT INTO items (id, v) VALUES (5, 50)"))
                    .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getErrorCode()).isEqualTo(1146));
            assertThat(results(s, "SELECT COUNT(*) FROM items WHERE id IN (4, 5)")).as("the batch stopped at the error")
                    .containsExactly("1");
            assertThat(results(s, "SELECT 42")).as("the connection goes on").containsExactly("42");
            assertThat(results(s, "BEGIN; INSERT INTO items (id, v) VALUES (6, 60), (7, 70); COMMIT; SELECT COUNT(*) FROM items"))
                    .as("a transaction across shards inside a batch").containsExactly("#0", "#2", "#0", "6");
            assertThat(results(s, "DELETE FROM items WHERE id IN (6, 7)")).containsExactly("#2");
        }
        try (Connection c = proxy.mysql("ms", "sslMode=DISABLED&allowMultiQueries=true"); Statement s = c.createStatement()) {
            assertThat(results(s, "SELECT 1; SELECT COUNT(*) FROM items; DELETE FROM items WHERE id = 4"))
                    .containsExactly("1", "4", "#1");
        }
        Cli.Result cli = Cli.run(Cli.mariadb(proxy.port(), "-Dms", "-e", "SELECT 1; SELECT COUNT(*) FROM items;"), null, 30);
        assertThat(cli.status()).as(cli.stderr()).isZero();
        assertThat(cli.stdout()).isEqualTo("1\n3\n");
        String script = """
                import sys, pymysql
                from pymysql.constants import CLIENT
                c = pymysql.connect(host='127.0.0.1', port=int(sys.argv[1]), user='app', password='app', database='ms',
                                    client_flag=CLIENT.MULTI_STATEMENTS)
                cur = c.cursor()
                cur.execute("SELECT 7; SELECT id FROM items ORDER BY id")
                print(cur.fetchall())
                cur.nextset()
                print(cur.fetchall())
                """;
        Cli.Result python = Cli.run(List.of("/usr/bin/python3", "-c", script, Integer.toString(proxy.port())), null, 60);
        assertThat(python.status()).as(python.stderr()).isZero();
        assertThat(python.stdout()).isEqualTo("((7,),)\n((1,), (2,), (3,))\n");
    }

    @Test
    void theProcessListIsTheProxysSessions() throws Exception {
        try (Connection c = proxy.mariadb("ms", ""); Statement s = c.createStatement()) {
            long id = c.unwrap(org.mariadb.jdbc.Connection.class).getThreadId();
            try (ResultSet rows = s.executeQuery("SELECT ID, DB, INFO FROM information_schema.PROCESSLIST WHERE ID = CONNECTION_ID()")) {
                assertThat(rows.next()).isTrue();
                assertThat(rows.getLong(1)).isEqualTo(id);
                assertThat(rows.getString(2)).isEqualTo("ms");
                assertThat(rows.getString(3)).startsWith("SELECT ID, DB, INFO FROM information_schema.PROCESSLIST");
            }
            try (ResultSet rows = s.executeQuery("SHOW PROCESSLIST")) {
                List<Long> ids = new ArrayList<>();
                while (rows.next()) {
                    ids.add(rows.getLong("Id"));
                }
                assertThat(ids).contains(id);
            }
        }
    }
}
