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
 * {@link StatementClassifier#classify} on each sysbench oltp_read_write statement, and the decision
 * after it. Goal: at most 2 µs per statement. Not run by the build; docs/routing.md says how to run it.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class ClassifierBenchmark {

    private static final Map<String, String> SYSBENCH = Map.of(
            "point_select", "SELECT c FROM sbtest1 WHERE id=5023",
            "simple_range", "SELECT c FROM sbtest1 WHERE id BETWEEN 5000 AND 5099",
            "sum_range", "SELECT SUM(k) FROM sbtest1 WHERE id BETWEEN 5000 AND 5099",
            "order_range", "SELECT c FROM sbtest1 WHERE id BETWEEN 5000 AND 5099 ORDER BY c",
            "distinct_range", "SELECT DISTINCT c FROM sbtest1 WHERE id BETWEEN 5000 AND 5099 ORDER BY c",
            "index_update", "UPDATE sbtest1 SET k=k+1 WHERE id=5023",
            "non_index_update", "UPDATE sbtest1 SET c='83868641912-28773972837-60736120486-75162659906-27563526494-20381887404-41576422241-93426793964-56405065102-33518432330' WHERE id=5023",
            "delete", "DELETE FROM sbtest1 WHERE id=5023",
            "insert", "INSERT INTO sbtest1 (id, k, c, pad) VALUES (5023, 4990, '83868641912-28773972837-60736120486-75162659906-27563526494-20381887404-41576422241-93426793964-56405065102-33518432330', '67847967377-48000963322-62604785301-91415491898-96926520291')",
            "begin", "BEGIN");

    @Param({"point_select", "simple_range", "sum_range", "order_range", "distinct_range",
            "index_update", "non_index_update", "delete", "insert", "begin"})
    public String statement;

    private String sql;
    private final StatementClassifier classifier = new StatementClassifier();

    @Setup
    public void setUp() {
        sql = SYSBENCH.get(statement);
    }

    @Benchmark
    public Classification classify() {
        return classifier.classify(sql);
    }

    @Benchmark
    public RoutingDecision classifyAndDecide() {
        Classification classification = classifier.classify(sql);
        return ReadWriteDecision.decide(classification, SessionRoutingState.INITIAL, classification.hints());
    }
}
