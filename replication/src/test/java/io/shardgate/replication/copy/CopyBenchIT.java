package io.shardgate.replication.copy;

import io.shardgate.replication.stream.ServerEndpoint;
import io.shardgate.replication.topology.Node;
import io.shardgate.replication.topology.Topology;
import io.shardgate.replication.topology.TopologySpec;
import io.shardgate.router.shard.KeyRange;
import io.shardgate.storage.Engine;
import io.shardgate.storage.StorageAdapters;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.io.File;
import java.nio.file.Files;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The copy's speed against {@code mariadb-dump | mariadb} of the same sysbench table on the same
 * servers, in one run. Skipped unless {@code -Dcopy.bench.rows=N} is given:
 *
 * <pre>
 * mvn -B -o -pl replication -am verify -Dtest=NONE -Dsurefire.failIfNoSpecifiedTests=false \
 *     -Dit.test=CopyBenchIT -Dfailsafe.failIfNoSpecifiedTests=false -Dcopy.bench.rows=1000000 [-Dcopy.bench.engine=rocksdb]
 *     [-Dcopy.bench.writers=N] [-Dcopy.bench.maxChunk=N] [-Dcopy.bench.rounds=3]
 * </pre>
 * Each round loads both targets afresh, the dump first; the machine's other load varies, so the
 * median of the rounds is the figure. Prints {@code copy bench: ...} lines with both times, rows/s
 * and the ratio per round and the median; asserts that both
 * targets' {@code CHECKSUM TABLE} equals the source's.
 */
class CopyBenchIT {

    @Test
    void copyAgainstDumpAndLoad() throws Exception {
        String rowsProperty = System.getProperty("copy.bench.rows");
        Assumptions.assumeTrue(rowsProperty != null, "set -Dcopy.bench.rows=N to run the copy bench");
        long rows = Long.parseLong(rowsProperty);
        Engine engine = "rocksdb".equalsIgnoreCase(System.getProperty("copy.bench.engine", "innodb"))
                ? Engine.ROCKSDB : Engine.INNODB;
        try (Topology topology = Topology.start(TopologySpec.builder().shard("src", Engine.INNODB, 0)
                .shard("dump", engine, 0).shard("copy", engine, 0).build())) {
            Node source = topology.shard("src").primary();
            Node dumpTarget = topology.shard("dump").primary();
            Node copyTarget = topology.shard("copy").primary();
            String user = topology.accounts().user();
            String password = topology.accounts().password();
            source.execute("CREATE DATABASE sb");
            run(List.of("sysbench", "oltp_read_write", "--mysql-host=127.0.0.1", "--mysql-port=" + source.port(),
                    "--mysql-user=" + user, "--mysql-password=" + password, "--mysql-db=sb", "--tables=1",
                    "--table-size=" + rows, "prepare"), password);

            int rounds = Integer.parseInt(System.getProperty("copy.bench.rounds", "3"));
            List<Double> ratios = new java.util.ArrayList<>();
            for (int round = 1; round <= rounds; round++) {
                dumpTarget.execute("DROP DATABASE IF EXISTS sb");
                copyTarget.execute("DROP DATABASE IF EXISTS sb");
                long dumpStart = System.nanoTime();
                run(List.of("bash", "-o", "pipefail", "-c", "mariadb-dump -h127.0.0.1 -P" + source.port() + " -u" + user
                        + " --single-transaction --databases sb"
                        // The dump names InnoDB, which a MyRocks server also has: the load must create the table in the target's engine.
                        + (engine == Engine.INNODB ? "" : " | sed 's/ENGINE=InnoDB/ENGINE=" + engine.serverName() + "/'")
                        + " | mariadb -h127.0.0.1 -P" + dumpTarget.port() + " -u" + user), password);
                double dumpSeconds = (System.nanoTime() - dumpStart) / 1e9;

                ServerEndpoint from = new ServerEndpoint(source.host(), source.port(), user, password);
                CopyTarget to = new CopyTarget("copy", new ServerEndpoint(copyTarget.host(), copyTarget.port(), user,
                        password), KeyRange.parse("-"), engine);
                TableCopy copy = new TableCopy(from, List.of(CopyTable.whole("sb", "sbtest1")), List.of(to),
                        settings(), Throttle.NEVER, checkpoint -> { },
                        StorageAdapters.load(getClass().getClassLoader()), notice -> { });
                long copyStart = System.nanoTime();
                copy.createSchema(false);
                copy.run(List.of());
                double copySeconds = (System.nanoTime() - copyStart) / 1e9;
                ratios.add(dumpSeconds / copySeconds);
                System.out.printf(Locale.ROOT, "copy bench: round %d, %d rows into %s: mariadb-dump | mariadb %.1f s"
                                + " (%.0f rows/s); copy %.1f s (%.0f rows/s); copy/dump = %.2fx%n", round, rows,
                        engine.serverName(), dumpSeconds, rows / dumpSeconds, copySeconds, rows / copySeconds,
                        dumpSeconds / copySeconds);
            }
            java.util.Collections.sort(ratios);
            System.out.printf(Locale.ROOT, "copy bench: %d rounds, copy/dump median %.2fx (min %.2fx, max %.2fx)%n",
                    rounds, ratios.get(rounds / 2), ratios.get(0), ratios.get(rounds - 1));
            for (Node target : List.of(dumpTarget, copyTarget)) {
                assertThat(target.queryString("SELECT ENGINE FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'sb'"
                        + " AND TABLE_NAME = 'sbtest1'")).isEqualToIgnoringCase(engine.serverName());
            }
            assertThat(checksumOf(copyTarget)).isEqualTo(checksumOf(source));
            assertThat(checksumOf(dumpTarget)).isEqualTo(checksumOf(source));
        }
    }

    /** The defaults, or {@code -Dcopy.bench.writers=N} and {@code -Dcopy.bench.maxChunk=N} to compare settings. */
    private static CopySettings settings() {
        CopySettings settings = CopySettings.defaults();
        if (System.getProperty("copy.bench.writers") != null) {
            settings = settings.withWritersPerTarget(Integer.parseInt(System.getProperty("copy.bench.writers")));
        }
        if (System.getProperty("copy.bench.maxChunk") != null) {
            settings = settings.withMaxChunk(Integer.parseInt(System.getProperty("copy.bench.maxChunk")));
        }
        System.out.println("copy bench: " + settings);
        return settings;
    }

    private static String checksumOf(Node node) {
        return CopyFixture.lines(node, "CHECKSUM TABLE sb.sbtest1").get(0);
    }

    private static void run(List<String> command, String password) throws Exception {
        File log = File.createTempFile("copy-bench", ".log");
        try {
            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log);
            builder.environment().put("MYSQL_PWD", password);
            Process process = builder.start();
            assertThat(process.waitFor(30, TimeUnit.MINUTES)).isTrue();
            assertThat(process.exitValue()).as(String.join(" ", command) + ": " + Files.readString(log.toPath())).isZero();
        } finally {
            Files.deleteIfExists(log.toPath());
        }
    }
}
