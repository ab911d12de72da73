package io.shardgate.router.classify;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * {@link StatementDigest}: the hash alone (what every statement of a known digest costs) and the
 * hash with the text (a new digest). Not run by the build; run it as {@link ClassifierBenchmark}
 * (docs/routing.md) with {@code DigestBenchmark} as the pattern.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class DigestBenchmark {
    private static final Map<String, String> STATEMENTS = Map.of(
            "point_select", "SELECT c FROM sbtest1 WHERE id=5023",
            "sum_range", "SELECT SUM(k) FROM sbtest1 WHERE id BETWEEN 5000 AND 5099",
            "non_index_update", "UPDATE sbtest1 SET c='83868641912-28773972837-60736120486-75162659906-27563526494-20381887404-41576422241-93426793964-56405065102-33518432330' WHERE id=5023",
            "insert_10_rows", "INSERT INTO sbtest1 (id, k, c, pad) VALUES " + "(5023, 4990, '83868641912-28773972837', '67847967377-48000963322'),".repeat(9)
                    + "(5024, 4991, '83868641912-28773972837', '67847967377-48000963322')");

    @Param({"point_select", "sum_range", "non_index_update", "insert_10_rows"})
    public String statement;

    private String sql;
    private final StatementDigest digest = new StatementDigest();

    @Setup
    public void setUp() {
        sql = STATEMENTS.get(statement);
    }

    @Benchmark
    public long hashOnly() {
        return digest.hash(sql, false);
    }

    @Benchmark
    public StatementDigest.Digest hashAndText() {
        return StatementDigest.of(sql, false, StatementDigest.MAX_TEXT);
    }
}
