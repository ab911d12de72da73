package io.shardgate.router.planner;

import com.alibaba.druid.sql.ast.SQLStatement;
import com.alibaba.druid.sql.dialect.mysql.parser.MySqlStatementParser;
import io.shardgate.router.plan.Plan;
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

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Druid's {@code MySqlStatementParser} alone ({@link #druidParse}) and the whole {@link Planner#plan}
 * ({@link #plan}: lexing, classification, parsing, analysis, rewriting) on the sysbench
 * oltp_read_write statements and a few scatter-gather shapes, against {@link ShopSchema}.
 * Not run by the build; docs/sharding.md says how to run it and records results.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class PlannerBenchmark {

    private static final Map<String, String> STATEMENTS = Map.ofEntries(
            Map.entry("point_select", "SELECT c FROM sbtest1 WHERE id=5023"),
            Map.entry("simple_range", "SELECT c FROM sbtest1 WHERE id BETWEEN 5000 AND 5099"),
            Map.entry("sum_range", "SELECT SUM(k) FROM sbtest1 WHERE id BETWEEN 5000 AND 5099"),
            Map.entry("order_range", "SELECT c FROM sbtest1 WHERE id BETWEEN 5000 AND 5099 ORDER BY c"),
            Map.entry("distinct_range", "SELECT DISTINCT c FROM sbtest1 WHERE id BETWEEN 5000 AND 5099 ORDER BY c"),
            Map.entry("index_update", "UPDATE sbtest1 SET k=k+1 WHERE id=5023"),
            Map.entry("delete", "DELETE FROM sbtest1 WHERE id=5023"),
            Map.entry("insert", "INSERT INTO sbtest1 (id, k, c, pad) VALUES (5023, 4990, '83868641912-28773972837-60736120486-75162659906-27563526494-20381887404-41576422241-93426793964-56405065102-33518432330', '67847967377-48000963322-62604785301-91415491898-96926520291')"),
            Map.entry("group_having", "SELECT status, COUNT(*), AVG(total) FROM orders GROUP BY status HAVING COUNT(*) > 2 ORDER BY 2 DESC LIMIT 10"),
            Map.entry("colocated_join", "SELECT o.id, c.name FROM orders o JOIN customers c ON c.id = o.customer_id WHERE c.id IN (1, 2, 3) ORDER BY o.id LIMIT 20"));

    @Param({"point_select", "simple_range", "sum_range", "order_range", "distinct_range", "index_update", "delete", "insert",
            "group_having", "colocated_join"})
    public String statement;

    private String sql;
    private final Planner planner = new Planner(ShopSchema.create());

    @Setup
    public void setUp() {
        sql = STATEMENTS.get(statement);
    }

    @Benchmark
    public List<SQLStatement> druidParse() {
        return new MySqlStatementParser(sql).parseStatementList();
    }

    @Benchmark
    public Plan plan() {
        return planner.plan(sql, "shop");
    }
}
