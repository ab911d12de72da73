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

/**
 * sysbench {@code oltp_read_write} as a new user runs it: {@code prepare}, {@code run} and
 * {@code cleanup} with sysbench's default options (one table of 10,000 rows, AUTO_INCREMENT ids,
 * the secondary index added after the load) through Shardgate, the table sharded by id over an
 * InnoDB shard and a MyRocks shard with a replica each; ids come from a global sequence.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SysbenchDefaultsIT {
    private static final String CONFIG = """
            schemas:
              - name: sbtest
                tables:
                  sbtest1: { shard_key: id, vindex: hash }
                sequences:
                  sbtest1.id: { shard: s0 }
            transactions: { cross_shard: xa }
            """;

    private Topology topology;
    private ProxyFixture proxy;

    @BeforeAll
    void start() {
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
    void prepareRunAndCleanupWithDefaultOptionsHaveNoFatalError() throws Exception {
        Cli.Result prepare = sysbench("prepare");
        assertThat(prepare.status()).as(prepare.stdout() + prepare.stderr()).isZero();
        long s0 = rows("s0");
        long s1 = rows("s1");
        assertThat(s0 + s1).as("rows of sbtest1 on both shards").isEqualTo(10_000);
        assertThat(Math.min(s0, s1)).as("split of sbtest1: s0 %d, s1 %d", s0, s1).isGreaterThan(3_500);
        for (String shard : List.of("s0", "s1")) {
            assertThat(topology.shard(shard).primary().queryString("SELECT COUNT(*) FROM information_schema.STATISTICS"
                    + " WHERE TABLE_SCHEMA = 'sbtest' AND TABLE_NAME = 'sbtest1' AND INDEX_NAME = 'k_1'"))
                    .as("sysbench's secondary index on %s", shard).isEqualTo("1");
        }

        Cli.Result run = sysbench("run", "--time=20", "--threads=2", "--report-interval=0");
        assertThat(run.status()).as(run.stdout() + run.stderr()).isZero();
        Matcher transactions = Pattern.compile("transactions:\\s+(\\d+)").matcher(run.stdout());
        Matcher reconnects = Pattern.compile("reconnects:\\s+(\\d+)").matcher(run.stdout());
        assertThat(transactions.find() && reconnects.find()).as(run.stdout()).isTrue();
        System.out.println("SysbenchDefaultsIT: oltp_read_write with sysbench's defaults through Shardgate on InnoDB + MyRocks: "
                + transactions.group(1) + " transactions in 20 s at 2 threads");
        assertThat(Long.parseLong(transactions.group(1))).isGreaterThan(20);
        assertThat(Long.parseLong(reconnects.group(1))).isZero();
        assertThat(run.stderr()).as("sysbench's fatal errors").doesNotContain("FATAL");

        Cli.Result cleanup = sysbench("cleanup");
        assertThat(cleanup.status()).as(cleanup.stdout() + cleanup.stderr()).isZero();
        for (String shard : List.of("s0", "s1")) {
            assertThat(topology.shard(shard).primary().queryString("SELECT COUNT(*) FROM information_schema.TABLES"
                    + " WHERE TABLE_SCHEMA = 'sbtest' AND TABLE_NAME = 'sbtest1'")).as("sbtest1 on %s after cleanup", shard)
                    .isEqualTo("0");
        }
    }

    private long rows(String shard) {
        return Long.parseLong(topology.shard(shard).primary().queryString("SELECT COUNT(*) FROM sbtest.sbtest1"));
    }

    private Cli.Result sysbench(String command, String... extra) throws Exception {
        List<String> args = new ArrayList<>(List.of("sysbench", "oltp_read_write", "--db-driver=mysql",
                "--mysql-host=127.0.0.1", "--mysql-port=" + proxy.port(), "--mysql-user=" + ProxyFixture.USER,
                "--mysql-password=" + ProxyFixture.PASSWORD, "--mysql-db=sbtest"));
        args.addAll(List.of(extra));
        args.add(command);
        return Cli.run(args, null, 240);
    }
}
