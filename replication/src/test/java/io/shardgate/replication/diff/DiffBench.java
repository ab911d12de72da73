package io.shardgate.replication.diff;

import io.shardgate.replication.topology.Node;
import io.shardgate.replication.topology.Topology;
import io.shardgate.replication.topology.TopologySpec;
import io.shardgate.storage.Engine;
import io.shardgate.storage.InnoDbAdapter;
import io.shardgate.storage.MyRocksAdapter;
import io.shardgate.storage.checksum.ChecksumResult;
import io.shardgate.storage.checksum.PkRange;
import io.shardgate.storage.checksum.TableChecksum;
import io.shardgate.storage.checksum.TableColumns;
import io.shardgate.storage.checksum.TableName;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.io.File;
import java.nio.file.Files;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Diff throughput against "chunked CRC on one server" on a 1M-row sysbench table. Not part of any suite
 * (the name matches neither Surefire's nor Failsafe's patterns); run it with
 * <pre>
 * mvn -B -o -pl replication -am verify -Dtest=NONE -Dsurefire.failIfNoSpecifiedTests=false \
 *     -Dit.test=DiffBench -Dfailsafe.failIfNoSpecifiedTests=false
 * </pre>
 * {@code sysbench oltp_read_write prepare} fills {@code sbtest.sbtest1} on an InnoDB source; its rows are
 * copied with {@code mariadb-dump | mariadb}, ids up to 500,000 to an InnoDB target (t1) and the rest to
 * both a second InnoDB target (t2) and a MyRocks one (t3). Then, round by round: the
 * baseline, {@code BIT_XOR(CRC32(CONCAT_WS(…)))} by 50,000-row primary-key ranges on the source alone, one
 * range after the other on one connection; the diff of the source against t1 + t2 (a reshard onto
 * InnoDB); and against t1 + t3 (half of it onto MyRocks), with default options; five rounds
 * ({@code -Ddiffbench.rounds=N}). Prints rows/s of each (best and median) and the ratios, and the same
 * chunked CRC over t3's 500,000 rows with and without {@code FORCE INDEX (PRIMARY)}, alternating which
 * goes first; asserts only that every diff is clean and complete.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DiffBench {
    private static final int ROWS = Integer.getInteger("diffbench.rows", 1_000_000);
    private static final int RANGE = 50_000;
    private static final int ROUNDS = Integer.getInteger("diffbench.rounds", 5);
    private static final TableName TABLE = TableName.parse("sbtest.sbtest1");
    private static final String DDL = "CREATE TABLE sbtest.sbtest1 (id INT NOT NULL AUTO_INCREMENT, k INT DEFAULT 0 NOT NULL,"
            + " c CHAR(120) DEFAULT '' NOT NULL, pad CHAR(60) DEFAULT '' NOT NULL, PRIMARY KEY (id), KEY k_1 (k))";

    private Topology topology;
    private Node source;
    private Node innodb;
    private Node innodb2;
    private Node rocksdb;

    @BeforeAll
    void prepare() throws Exception {
        topology = Topology.start(TopologySpec.builder()
                .shard("src", Engine.INNODB, 0)
                .shard("t1", Engine.INNODB, 0)
                .shard("t2", Engine.INNODB, 0)
                .shard("t3", Engine.ROCKSDB, 0)
                .build());
        source = topology.shard("src").primary();
        innodb = topology.shard("t1").primary();
        innodb2 = topology.shard("t2").primary();
        rocksdb = topology.shard("t3").primary();
        source.execute("CREATE DATABASE sbtest");
        run(List.of("sysbench", "oltp_read_write", "--mysql-host=127.0.0.1", "--mysql-port=" + source.port(),
                "--mysql-user=" + topology.accounts().user(), "--mysql-password=" + topology.accounts().password(),
                "--mysql-db=sbtest", "--tables=1", "--table-size=" + ROWS, "prepare"));
        for (Node target : List.of(innodb, innodb2, rocksdb)) {
            target.execute("CREATE DATABASE sbtest", DDL);
        }
        copy(innodb, "id <= " + ROWS / 2);
        copy(innodb2, "id > " + ROWS / 2);
        copy(rocksdb, "id > " + ROWS / 2);
    }

    @AfterAll
    void stop() {
        if (topology != null) {
            topology.close();
        }
    }

    private void copy(Node target, String where) throws Exception {
        String credentials = " -h127.0.0.1 -u'" + topology.accounts().user() + "' -p'" + topology.accounts().password() + "'";
        run(List.of("bash", "-o", "pipefail", "-c", "mariadb-dump" + credentials + " -P" + source.port()
                + " --no-create-info --skip-add-locks --single-transaction --where='" + where + "' sbtest sbtest1 | mariadb"
                + credentials + " -P" + target.port() + " sbtest"));
    }

    private static void run(List<String> command) throws Exception {
        File log = File.createTempFile("diffbench", ".log");
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log).start();
            assertThat(process.waitFor(600, TimeUnit.SECONDS)).as(String.join(" ", command)).isTrue();
            assertThat(process.exitValue()).as(Files.readString(log.toPath())).isZero();
        } finally {
            Files.deleteIfExists(log.toPath());
        }
    }

    @Test
    void diffAgainstChunkedCrcOnOneServer() throws SQLException {
        double[] baselines = new double[ROUNDS];
        double[] allInnoDb = new double[ROUNDS];
        double[] mixed = new double[ROUNDS];
        for (int round = 0; round < ROUNDS; round++) {
            baselines[round] = baseline(source, new InnoDbAdapter().checksum(), 1, ROWS);
            allInnoDb[round] = diff(innodb2, new InnoDbAdapter().checksum());
            mixed[round] = diff(rocksdb, new MyRocksAdapter().checksum());
            System.out.printf("diffbench round %d: chunked CRC on one server %.0f rows/s; diff onto InnoDB + InnoDB %.0f rows/s"
                    + " (%.2fx), onto InnoDB + MyRocks %.0f rows/s (%.2fx)%n", round + 1, baselines[round], allInnoDb[round],
                    allInnoDb[round] / baselines[round], mixed[round], mixed[round] / baselines[round]);
        }
        for (String statistic : List.of("best", "median")) {
            double baseline = pick(baselines, statistic);
            System.out.printf("diffbench %s of %d: %d rows; chunked CRC on one server (50k-row ranges) %.0f rows/s; diff onto"
                            + " InnoDB + InnoDB %.0f rows/s (%.2fx); onto InnoDB + MyRocks %.0f rows/s (%.2fx)%n", statistic,
                    ROUNDS, ROWS, baseline, pick(allInnoDb, statistic), pick(allInnoDb, statistic) / baseline,
                    pick(mixed, statistic), pick(mixed, statistic) / baseline);
        }
        double[] plain = new double[ROUNDS];
        double[] forced = new double[ROUNDS];
        for (int round = 0; round < ROUNDS; round++) {
            boolean plainFirst = round % 2 == 0;
            TableChecksum first = plainFirst ? new TableChecksum(TableChecksum.ScanHint.KEY_RANGE) : new MyRocksAdapter().checksum();
            TableChecksum second = plainFirst ? new MyRocksAdapter().checksum() : new TableChecksum(TableChecksum.ScanHint.KEY_RANGE);
            double a = baseline(rocksdb, first, ROWS / 2 + 1, ROWS);
            double b = baseline(rocksdb, second, ROWS / 2 + 1, ROWS);
            plain[round] = plainFirst ? a : b;
            forced[round] = plainFirst ? b : a;
        }
        System.out.printf("diffbench: chunked CRC of MyRocks' %d rows, median of %d: %.0f rows/s as the optimizer picks,"
                + " %.0f rows/s with FORCE INDEX (PRIMARY)%n", ROWS / 2, ROUNDS, pick(plain, "median"), pick(forced, "median"));
    }

    private static double pick(double[] values, String statistic) {
        double[] sorted = values.clone();
        java.util.Arrays.sort(sorted);
        return statistic.equals("best") ? sorted[sorted.length - 1] : sorted[sorted.length / 2];
    }

    private double baseline(Node node, TableChecksum checksum, int first, int last) throws SQLException {
        try (Connection connection = node.connect()) {
            TableColumns columns = checksum.columns(connection, TABLE);
            long started = System.nanoTime();
            long rows = 0;
            for (int lower = first; lower <= last; lower += RANGE) {
                ChecksumResult result = checksum.checksum(connection, TABLE, columns, PkRange.of(lower, lower + RANGE));
                rows += result.rows();
            }
            double seconds = (System.nanoTime() - started) / 1e9;
            assertThat(rows).isEqualTo(last - first + 1);
            return rows / seconds;
        }
    }

    private double diff(Node upperHalf, TableChecksum upperChecksum) throws SQLException {
        DiffPoints points = new QuiescedDiffPoints(source::connect, List.of(innodb::connect, upperHalf::connect));
        TableDiff diff = TableDiff.of(TABLE, points, new InnoDbAdapter().checksum(),
                List.of(DiffTarget.of("t1", new InnoDbAdapter().checksum()), DiffTarget.of(upperHalf.shard(), upperChecksum)),
                DiffOptions.defaults());
        TableDiffTest.Recorder recorder = new TableDiffTest.Recorder();
        long started = System.nanoTime();
        DiffCheckpoint end = diff.run(recorder);
        double seconds = (System.nanoTime() - started) / 1e9;
        assertThat(recorder.mismatches).isEmpty();
        assertThat(end.clean()).isTrue();
        assertThat(end.rowsCompared()).isEqualTo(ROWS);
        System.out.printf("diffbench: diff onto t1 + %s took %.2f s in %d chunks%n", upperHalf.shard(), seconds,
                end.chunksDone());
        return end.rowsCompared() / seconds;
    }
}
