package io.shardgate.it;

import io.shardgate.replication.topology.Topology;
import io.shardgate.replication.topology.TopologySpec;
import io.shardgate.storage.Engine;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * sysbench oltp_read_write through Shardgate on a sharded schema: four tables sharded by {@code id}
 * over s0 (InnoDB) and s1 (MyRocks), each with a replica; tables created and loaded through
 * Shardgate (DDL fans out, each shard gets its own engine), then transactions whose writes span
 * both shards commit with XA. sysbench's server-side prepared statements run in the binary protocol.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ShardedSysbenchIT {
    private static final String CONFIG = """
            schemas:
              - name: sbtest
                tables:
                  sbtest1: { shard_key: id, vindex: hash }
                  sbtest2: { shard_key: id, vindex: hash }
                  sbtest3: { shard_key: id, vindex: hash }
                  sbtest4: { shard_key: id, vindex: hash }
            transactions: { cross_shard: xa }
            # Every blocking DDL needs the session's consent here, however small its table (DdlCostIT tests the bounds).
            ddl: { blocking_max_rows: 0, blocking_max_bytes: 0 }
            """;

    private Topology topology;
    private ProxyFixture proxy;

    @BeforeAll
    void start() {
        // A deadlock across shards is invisible to each server's detector: a short lock wait ends it.
        topology = Topology.start(TopologySpec.builder()
                .shard("s0", Engine.INNODB, 1)
                .shard("s1", Engine.ROCKSDB, 1)
                .serverOption("innodb_lock_wait_timeout", "2")
                .build());
        for (String shard : List.of("s0", "s1")) {
            topology.shard(shard).primary().execute("CREATE DATABASE sbtest");
        }
        proxy = ProxyFixture.start(topology, ProxyFixture.HALVES, CONFIG);
    }

    @AfterAll
    void stop() {
        ProxyFixture.stop(proxy, topology);
    }

    @Test
    void oltpReadWriteOnTwoShardsRunsWithoutErrors() throws Exception {
        // sysbench adds its secondary index after loading; on MyRocks that blocks writes, which Shardgate
        // refuses unless the session allows it, so the index is added here, allowed, as an operator would.
        Cli.Result prepare = sysbench("prepare", List.of("--create_secondary=off"));
        assertThat(prepare.status()).as(prepare.stdout() + prepare.stderr()).isZero();
        try (java.sql.Connection connection = proxy.mariadb("sbtest", "");
             java.sql.Statement statement = connection.createStatement()) {
            assertThatThrownBy(() -> statement.execute("CREATE INDEX k_1 ON sbtest1(k)"))
                    .isInstanceOfSatisfying(java.sql.SQLException.class, e -> assertThat(e.getErrorCode()).isEqualTo(1846));
            statement.execute("SET SESSION shardgate_allow_blocking_ddl = ON");
            for (int table = 1; table <= 4; table++) {
                statement.execute("CREATE INDEX k_" + table + " ON sbtest" + table + "(k)");
            }
        }
        assertThat(topology.shard("s1").primary().queryString("SELECT COUNT(*) FROM information_schema.STATISTICS"
                + " WHERE TABLE_SCHEMA = 'sbtest' AND INDEX_NAME LIKE 'k\\_%'")).isEqualTo("4");
        long s0 = rows("s0");
        long s1 = rows("s1");
        assertThat(s0 + s1).as("rows of sbtest1 on both shards").isEqualTo(5000);
        assertThat(Math.abs(s0 - s1)).as("split of sbtest1: s0 %d, s1 %d", s0, s1).isLessThan(750);
        assertThat(topology.shard("s1").primary().queryString("SELECT ENGINE FROM information_schema.TABLES"
                + " WHERE TABLE_SCHEMA = 'sbtest' AND TABLE_NAME = 'sbtest1'")).isEqualTo("ROCKSDB");

        Cli.Result run = sysbench("run", List.of("--time=60", "--threads=4", "--report-interval=0"));
        assertThat(run.status()).as(run.stdout() + run.stderr()).isZero();
        Matcher errors = Pattern.compile("ignored errors:\\s+(\\d+)").matcher(run.stdout());
        Matcher reconnects = Pattern.compile("reconnects:\\s+(\\d+)").matcher(run.stdout());
        Matcher transactions = Pattern.compile("transactions:\\s+(\\d+)").matcher(run.stdout());
        assertThat(errors.find() && reconnects.find() && transactions.find()).as(run.stdout()).isTrue();
        System.out.println("ShardedSysbenchIT oltp_read_write on 2 shards through Shardgate: " + transactions.group(1)
                + " transactions in 60 s, " + errors.group(1) + " ignored errors (deadlocks and lock wait timeouts), "
                + reconnects.group(1) + " reconnects");
        assertThat(Long.parseLong(reconnects.group(1))).isZero();
        assertThat(Long.parseLong(transactions.group(1))).isGreaterThan(100);
        // Every transaction committed or rolled back as a whole: no XA branch is left prepared.
        for (String shard : List.of("s0", "s1")) {
            try (java.sql.Connection connection = topology.shard(shard).primary().connect();
                 java.sql.ResultSet prepared = connection.createStatement().executeQuery("XA RECOVER")) {
                assertThat(prepared.next()).as("an XA branch left prepared on %s after the run", shard).isFalse();
            }
        }
    }

    private long rows(String shard) {
        return Long.parseLong(topology.shard(shard).primary().queryString("SELECT COUNT(*) FROM sbtest.sbtest1"));
    }

    private Cli.Result sysbench(String command, List<String> extra) throws Exception {
        List<String> args = new ArrayList<>(List.of("sysbench", "oltp_read_write", "--db-driver=mysql",
                "--mysql-host=127.0.0.1", "--mysql-port=" + proxy.port(), "--mysql-user=" + ProxyFixture.USER,
                "--mysql-password=" + ProxyFixture.PASSWORD, "--mysql-db=sbtest", "--tables=4", "--table-size=5000",
                "--auto-inc=off"));
        args.addAll(extra);
        args.add(command);
        return Cli.run(args, null, 240);
    }
}
