package io.shardgate.proxy.frontend;

import io.shardgate.proxy.protocol.ClientCharset;
import io.shardgate.proxy.protocol.Command;
import io.shardgate.proxy.protocol.MySqlPacket;
import io.shardgate.router.classify.Classification;
import io.shardgate.router.classify.StatementClassifier;
import io.shardgate.router.planner.Planner;
import io.shardgate.router.schema.SchemaRules;
import io.shardgate.router.schema.Shard;
import io.shardgate.router.schema.ShardedTable;
import io.shardgate.router.schema.ShardingSchema;
import io.shardgate.router.shard.KeyRange;
import io.shardgate.router.vindex.HashVindex;
import io.shardgate.router.vindex.KeyType;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.ToIntFunction;

/**
 * Not a test: a JMH-less microbenchmark of the steps {@link QueryExecutor} runs on a COM_QUERY's
 * statement text before it is forwarded or planned, each step timed alone on one thread (best of
 * several rounds, so other processes on a shared machine inflate it less), for a sysbench point
 * select and a 1,000-row sysbench-style INSERT (about 190 KB). Run from proxy-core with the test
 * classpath: {@code java -cp target/test-classes:target/classes:$(cat cp.txt) io.shardgate.proxy.frontend.AnalysisBench}.
 */
public final class AnalysisBench {
    private static volatile Object sink;

    private AnalysisBench() {
    }

    public static void main(String[] args) {
        ClientCharset charset = ClientCharset.UTF8MB4;
        StatementClassifier classifier = new StatementClassifier();
        Planner planner = new Planner(new ShardingSchema(List.of(new Shard("s0", KeyRange.parse("-80")), new Shard("s1", KeyRange.parse("80-"))),
                List.of(new SchemaRules("sbtest", List.of(new ShardedTable("sbtest1", "id", new HashVindex(KeyType.INTEGER))), List.of()))));
        String insert = insert(1000);
        for (String[] statement : List.of(new String[] {"point_select", "SELECT c FROM sbtest1 WHERE id=5023"},
                new String[] {"insert_1000_rows", insert})) {
            String sql = statement[1];
            MySqlPacket packet = MySqlPacket.command(Command.QUERY, sql);
            Classification classification = classifier.classify(sql);
            System.out.printf(Locale.ROOT, "%s (%d chars)%n", statement[0], sql.length());
            List<Step> steps = new ArrayList<>();
            steps.add(new Step("decode", i -> StatementText.of(charset, packet).length()));
            steps.add(new Step("own statements", i -> KillStatement.parse(sql).isPresent() || ShardgateStatement.parse(sql).isPresent() ? 1 : 0));
            steps.add(new Step("classify", i -> classifier.classify(sql).hashCode()));
            steps.add(new Step("next-transaction / show warnings", i -> QueryExecutor.isNextTransactionOnly(classification, sql)
                    || ShardedCommands.isShowWarnings(sql) ? 1 : 0));
            steps.add(new Step("DdlGate.checked", i -> DdlGate.checked(sql) ? 1 : 0));
            steps.add(new Step("TrackingChange", i -> TrackingChange.of(sql) == null ? 0 : 1));
            steps.add(new Step("QueryRewriter (packet)", i -> QueryRewriter.rewrite(packet, sql, charset, 7, false) == packet ? 0 : 1));
            steps.add(new Step("TemporaryTableNames", i -> TemporaryTableNames.of(sql, false) == null ? 0 : 1));
            if (sql.length() < 10_000) { // a multi-row INSERT's plan (InsertPlanner) takes tens of ms: timed elsewhere
                steps.add(new Step("sharded: plan (cache miss)", i -> planner.plan(sql, "sbtest").hashCode()));
            }
            steps.add(new Step("sharded: PointSelectText.of", i -> PointSelectText.of(sql) == null ? 0 : 1));
            long total = 0;
            for (Step step : steps) {
                long ns = step.time(sql.length() > 10_000 ? 200 : 200_000);
                if (!step.name.startsWith("sharded")) {
                    total += ns;
                }
                System.out.printf(Locale.ROOT, "  %-34s %10.2f us%n", step.name, ns / 1000.0);
            }
            System.out.printf(Locale.ROOT, "  %-34s %10.2f us%n", "total (unsharded path)", total / 1000.0);
        }
    }

    /** sysbench-style rows: (id, k, c, pad) with c of 119 and pad of 59 digits and dashes. */
    public static String insert(int rows) {
        StringBuilder sql = new StringBuilder("INSERT INTO sbtest1 (id, k, c, pad) VALUES ");
        ThreadLocalRandom random = ThreadLocalRandom.current();
        for (int r = 0; r < rows; r++) {
            sql.append(r == 0 ? "" : ",").append('(').append(r + 1).append(", ").append(random.nextInt(100_000)).append(", '");
            for (int g = 0; g < 10; g++) {
                sql.append(g == 0 ? "" : "-").append(random.nextLong(10_000_000_000L, 100_000_000_000L));
            }
            sql.append("', '");
            for (int g = 0; g < 5; g++) {
                sql.append(g == 0 ? "" : "-").append(random.nextLong(10_000_000_000L, 100_000_000_000L));
            }
            sql.append("')");
        }
        return sql.toString();
    }

    private record Step(String name, ToIntFunction<Integer> body) {
        /** Nanoseconds per call: the best of 7 rounds of {@code calls} calls, after as many to warm up. */
        long time(int calls) {
            long best = Long.MAX_VALUE;
            for (int round = 0; round < 9; round++) {
                long start = System.nanoTime();
                int acc = 0;
                for (int i = 0; i < calls; i++) {
                    acc += body.applyAsInt(i);
                }
                long elapsed = System.nanoTime() - start;
                sink = acc;
                if (round >= 2) {
                    best = Math.min(best, elapsed / calls);
                }
            }
            return best;
        }
    }
}
