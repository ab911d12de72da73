package io.shardgate.tools.bench;

import io.shardgate.replication.topology.Node;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * What the reshard's copy and diff are compared with, on the same table in the same run: {@code mariadb-dump | mariadb}
 * of the source's {@code sbtest.sbtest1} into an empty InnoDB server, and {@code BIT_XOR(CRC32(CONCAT_WS(…)))} over
 * primary-key ranges of about 50,000 rows each on the source alone (the baselines of docs/benchmarks.md).
 */
final class ReshardBaselines {
    static final int CRC_RANGE_ROWS = 50_000;

    /** Rows and seconds of one baseline. */
    record Rate(long rows, double seconds) {
        double rowsPerSecond() {
            return rows / seconds;
        }
    }

    private ReshardBaselines() {
    }

    /** {@code mariadb-dump --single-transaction sbtest sbtest1 | mariadb} from {@code source} into {@code target}. */
    static Rate dumpLoad(Node source, Node target, String user, String password) throws IOException, InterruptedException {
        target.execute("DROP DATABASE IF EXISTS sbtest", "CREATE DATABASE sbtest");
        long rows = Long.parseLong(source.queryString("SELECT COUNT(*) FROM sbtest.sbtest1"));
        String pipe = "mariadb-dump -h127.0.0.1 -P" + source.port() + " -u" + user + " --single-transaction sbtest sbtest1"
                + " | mariadb -h127.0.0.1 -P" + target.port() + " -u" + user + " sbtest";
        ProcessBuilder builder = new ProcessBuilder(List.of("bash", "-o", "pipefail", "-c", pipe)).redirectErrorStream(true);
        builder.environment().put("MYSQL_PWD", password);
        long started = System.nanoTime();
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(60, TimeUnit.MINUTES) || process.exitValue() != 0) {
            process.destroyForcibly();
            throw new IOException(pipe + " failed:\n" + output);
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        long loaded = Long.parseLong(target.queryString("SELECT COUNT(*) FROM sbtest.sbtest1"));
        // sysbench oltp_read_write deletes and re-inserts rows meanwhile: the dump's snapshot, taken after the count,
        // may hold a row or two more or fewer than the count saw; the rate is of the rows the dump carried.
        if (Math.abs(loaded - rows) > Math.max(100, rows / 1000)) {
            throw new IllegalStateException("dump | load left " + loaded + " rows of " + rows);
        }
        return new Rate(loaded, seconds);
    }

    /**
     * The chunked CRC of {@code sbtest.sbtest1} on {@code server}: id ranges sized to hold about 50,000 of its rows (the
     * server holds a hash-sharded part of the ids, so the ranges are wider than 50,000 ids).
     */
    static Rate chunkedCrc(Node server) throws SQLException {
        long started = System.nanoTime();
        long rows = 0;
        try (Connection connection = server.connect(); Statement statement = connection.createStatement()) {
            long min;
            long max;
            long count;
            try (ResultSet bounds = statement.executeQuery("SELECT MIN(id), MAX(id), COUNT(*) FROM sbtest.sbtest1")) {
                bounds.next();
                min = bounds.getLong(1);
                max = bounds.getLong(2);
                count = bounds.getLong(3);
            }
            long span = rangeSpan(min, max, count);
            try (PreparedStatement crc = connection.prepareStatement("SELECT COUNT(*), BIT_XOR(CRC32(CONCAT_WS('#', id, k, c, pad)))"
                    + " FROM sbtest.sbtest1 WHERE id >= ? AND id < ?")) {
                for (long lower = min; lower <= max; lower += span) {
                    crc.setLong(1, lower);
                    crc.setLong(2, lower + span);
                    try (ResultSet chunk = crc.executeQuery()) {
                        chunk.next();
                        rows += chunk.getLong(1);
                    }
                }
            }
        }
        return new Rate(rows, (System.nanoTime() - started) / 1e9);
    }

    /** How many ids a range spans for about {@link #CRC_RANGE_ROWS} of {@code count} rows spread over ids min..max. */
    static long rangeSpan(long min, long max, long count) {
        if (count == 0) {
            return 1;
        }
        return Math.max(1, (long) Math.ceil((double) (max - min + 1) * CRC_RANGE_ROWS / count));
    }
}
