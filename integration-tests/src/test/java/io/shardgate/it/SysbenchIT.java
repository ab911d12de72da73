package io.shardgate.it;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/** sysbench (libmariadb, server-side prepared statements) through Shardgate. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SysbenchIT {
    private ProxyFixture proxy;

    @BeforeAll
    void start() {
        proxy = ProxyFixture.withOwnShard(Map.of(), "", "CREATE DATABASE sbtest");
    }

    @AfterAll
    void stop() {
        if (proxy != null) {
            proxy.close();
        }
    }

    @Test
    void oltpReadWriteRunsWithoutErrors() throws Exception {
        Cli.Result prepare = sysbench("prepare", List.of());
        assertThat(prepare.status()).as(prepare.stdout() + prepare.stderr()).isZero();

        long deadlocksBefore = deadlocks();
        Cli.Result run = sysbench("run", List.of("--time=30", "--threads=4", "--report-interval=0"));
        long deadlocks = deadlocks() - deadlocksBefore;
        assertThat(run.status()).as(run.stdout() + run.stderr()).isZero();
        Matcher errors = Pattern.compile("ignored errors:\\s+(\\d+)").matcher(run.stdout());
        Matcher reconnects = Pattern.compile("reconnects:\\s+(\\d+)").matcher(run.stdout());
        Matcher transactions = Pattern.compile("transactions:\\s+(\\d+)").matcher(run.stdout());
        assertThat(errors.find() && reconnects.find() && transactions.find()).as(run.stdout()).isTrue();
        System.out.println("SysbenchIT oltp_read_write through Shardgate: " + transactions.group(1)
                + " transactions in 30 s, " + errors.group(1) + " ignored errors, " + deadlocks + " InnoDB deadlocks, "
                + reconnects.group(1) + " reconnects");
        // sysbench retries deadlocks ("ignored errors"); four writers can deadlock in InnoDB with or without
        // a proxy. Every one of them must be a deadlock the backend itself counted, never a proxy error.
        assertThat(Long.parseLong(errors.group(1))).as("ignored errors beyond the backend's own deadlocks")
                .isLessThanOrEqualTo(deadlocks);
        assertThat(Long.parseLong(reconnects.group(1))).isZero();
        assertThat(Long.parseLong(transactions.group(1))).isGreaterThan(100);

        Cli.Result cleanup = sysbench("cleanup", List.of());
        assertThat(cleanup.status()).as(cleanup.stdout() + cleanup.stderr()).isZero();
        assertThat(proxy.topology().shard("s0").primary().queryString(
                "SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'sbtest'")).isEqualTo("0");
    }

    private long deadlocks() {
        return Long.parseLong(proxy.topology().shard("s0").primary().queryString(
                "SELECT VARIABLE_VALUE FROM information_schema.GLOBAL_STATUS WHERE VARIABLE_NAME = 'INNODB_DEADLOCKS'"));
    }

    private Cli.Result sysbench(String command, List<String> extra) throws Exception {
        List<String> args = new ArrayList<>(List.of("sysbench", "oltp_read_write", "--db-driver=mysql",
                "--mysql-host=127.0.0.1", "--mysql-port=" + proxy.port(), "--mysql-user=" + ProxyFixture.USER,
                "--mysql-password=" + ProxyFixture.PASSWORD, "--mysql-db=sbtest", "--tables=2", "--table-size=10000"));
        args.addAll(extra);
        args.add(command);
        return Cli.run(args, null, 180);
    }
}
