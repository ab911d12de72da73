package io.shardgate.tools.bench;

import com.fasterxml.jackson.databind.JsonNode;
import io.shardgate.replication.topology.Node;
import io.shardgate.replication.topology.Shard;
import io.shardgate.replication.topology.Topology;
import io.shardgate.replication.topology.TopologySpec;
import io.shardgate.router.shard.KeyRange;
import io.shardgate.storage.Engine;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * {@code shardgate bench move [--rows N] [--time-before S] [--threads N]}: issue 21's "move a 1M-row table InnoDB → MyRocks
 * under load" as a bench. s0 (InnoDB, a GTID replica) holds the unsharded {@code sbtest.sbtest1} (N sysbench rows, loaded
 * straight onto it) and the probe table {@code sbtest.probe}; s1 is an empty MyRocks primary. One packaged proxy (file
 * topology and job store) serves both tables from s0 while sysbench {@code oltp_read_write --skip_trx=on} and a
 * {@link WriteProbe} (every 10 ms) run through it, and a move job takes both tables to s1 on MyRocks, cuts over and is
 * completed. Then the diff must be clean, every acknowledged probe write on s1 once, s0 without a write once the job is
 * done (its binlog position stands still while the load runs on), sysbench without unretryable errors;
 * the table gives the sizes before and after ({@code checkpoints.sizes}), the copy and diff rates and the probe's longest
 * pause. Everything started is stopped, also on failure.
 */
final class MoveBench {
    private static final String TOKEN = "bench-token";
    private static final List<String> JVM_OPTIONS = List.of("-Xmx512m");
    private static final List<String> TABLES = List.of("sbtest.sbtest1", WriteProbe.TABLE);
    private static final int MAX_CUTOVER_ATTEMPTS = 3;
    private final PrintStream out;
    private final PrintStream err;

    MoveBench(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    /** The command line; {@code proxyJar} null means the one next to the tools jar. */
    record Options(int rows, int secondsBefore, int threads, Path proxyJar) {
        static Options parse(List<String> args) {
            int rows = 1_000_000;
            int before = 10;
            int threads = 2;
            Path jar = null;
            for (int i = 0; i < args.size(); i++) {
                switch (args.get(i)) {
                    case "--rows" -> rows = BenchCommand.positive("--rows", args, ++i);
                    case "--time-before" -> before = BenchCommand.positive("--time-before", args, ++i);
                    case "--threads" -> threads = BenchCommand.positive("--threads", args, ++i);
                    case "--proxy-jar" -> {
                        if (++i >= args.size()) {
                            throw new IllegalArgumentException("--proxy-jar needs a path");
                        }
                        jar = Path.of(args.get(i));
                    }
                    default -> throw new IllegalArgumentException("unknown argument '" + args.get(i) + "'");
                }
            }
            return new Options(rows, before, threads, jar);
        }
    }

    int run(List<String> args) throws IOException, InterruptedException {
        Options options;
        try {
            options = Options.parse(args);
        } catch (IllegalArgumentException e) {
            err.println("shardgate bench move: " + e.getMessage() + " (expected: [--rows N] [--time-before S] [--threads N])");
            return 2;
        }
        Path jar = options.proxyJar() != null ? options.proxyJar() : MemoryBench.besideToolsJar();
        return BenchScope.run("bench move", out, err, scope -> run(options, jar, scope));
    }

    private int run(Options options, Path jar, BenchScope scope)
            throws IOException, InterruptedException, SQLException {
        long begun = System.nanoTime();
        Topology topology = Topology.start(TopologySpec.builder().shard("s0", Engine.INNODB, 1).shard("s1", Engine.ROCKSDB, 0).build());
        scope.started(topology);
        String user = topology.accounts().user();
        String password = topology.accounts().password();
        Node s0 = topology.shard("s0").primary();
        Node s1 = topology.shard("s1").primary();
        out.printf(Locale.ROOT, "bench move: %,d rows, MariaDB %s, %s; logs in %s%n", options.rows(),
                s0.queryString("SELECT VERSION()"), topology.launcherDescription(), scope.logs());
        long preparing = System.nanoTime();
        s0.execute("CREATE DATABASE sbtest", WriteProbe.DDL);
        ShardedLoad.load(Map.of("-", s0), options.rows());
        out.printf(Locale.ROOT, "prepared %,d sysbench rows straight onto s0 (InnoDB) in %.1f s%n", count(s0),
                (System.nanoTime() - preparing) / 1e9);
        long replicating = System.nanoTime();
        topology.awaitReplication(java.time.Duration.ofMinutes(15)); // the job throttles while a replica lags, a baseline does not
        out.printf(Locale.ROOT, "replicas caught up with the load %.1f s later%n", (System.nanoTime() - replicating) / 1e9);
        ProxyProcess proxy = ProxyProcess.start(jar, JVM_OPTIONS, yaml(topology), scope.logs(), "proxy");
        scope.started(proxy);
        out.printf("one proxy on port %d (admin %d), file topology and job store%n", proxy.port(), proxy.adminPort());

        SysbenchLoad load = SysbenchLoad.start("sysbench", proxy.port(), user, password, options.threads(), options.rows(), true, scope.logs());
        scope.started(load);
        WriteProbe probe = new WriteProbe(0, proxy.port(), user, password, KeyRange.parse("-"));
        scope.started(probe);
        probe.start();
        out.printf("load: sysbench oltp_read_write --skip_trx=on, %d threads, and a probe writing every 10 ms into %s, through"
                + " the proxy; %d s before the job%n", options.threads(), WriteProbe.TABLE, options.secondsBefore());
        TimeUnit.SECONDS.sleep(options.secondsBefore());

        JobsApi jobs = new JobsApi(proxy.adminPort(), TOKEN);
        String id = jobs.move("s0", "s1", "rocksdb", TABLES);
        out.println("job " + id + ": " + String.join(", ", TABLES) + " from s0 (InnoDB) to s1 (MyRocks); waiting for ready");
        JsonNode ready = jobs.await(id, Set.of("ready"), Duration.ofHours(2));
        out.printf(Locale.ROOT, "ready: copied %,d rows, diff compared %,d rows, %d mismatches%n", JobsApi.rowsCopied(ready),
                ready.path("diff").path("rows_compared").asLong(), ready.path("diff").path("mismatches").asLong());
        out.println("sizes: " + ready.path("checkpoints").path("sizes"));

        long cutoverFrom = System.nanoTime();
        JobsApi.Switched switched = jobs.cutover(id, MAX_CUTOVER_ATTEMPTS, out);
        JsonNode after = switched.job();
        int attempts = switched.attempts();
        long cutoverTo = System.nanoTime();
        out.printf(Locale.ROOT, "%s %.1f s after the cutover was asked%n", after.path("phase").asText(), (cutoverTo - cutoverFrom) / 1e9);
        WriteProbe.awaitMore(List.of(probe), 100);
        if (after.path("phase").asText().equals("switched")) {
            jobs.act(id, "complete");
            jobs.await(id, Set.of("done"), Duration.ofMinutes(5));
            out.println("done after complete");
        }
        String sourceBefore = s0.queryString("SELECT @@gtid_binlog_pos");
        WriteProbe.awaitMore(List.of(probe), 100);
        String sourceAfter = s0.queryString("SELECT @@gtid_binlog_pos");
        probe.close();
        SysbenchLoad.Outcome outcome = load.stop();
        List<String> failures = new ArrayList<>();
        out.printf("s0's binlog while the load ran on after done: %s -> %s%n", sourceBefore, sourceAfter);
        if (!sourceBefore.equals(sourceAfter)) {
            failures.add("s0 still took writes after the move was done: its binlog went from " + sourceBefore + " to " + sourceAfter);
        }
        return report(options, s1, jobs.job(id), ready, probe, outcome, attempts, cutoverFrom, cutoverTo, begun, failures);
    }

    private int report(Options options, Node s1, JsonNode job, JsonNode ready, WriteProbe probe, SysbenchLoad.Outcome outcome,
                       int attempts, long cutoverFrom, long cutoverTo, long begun, List<String> failures) throws SQLException {
        List<Long> acknowledged = probe.ackedIds();
        long pauseMs = TimeUnit.NANOSECONDS.toMillis(probe.longestGapNanos(cutoverFrom, cutoverTo));
        out.printf(Locale.ROOT, "probe: %,d writes acknowledged, longest pause over the whole run %d ms, %d errors%n",
                probe.acknowledged(), TimeUnit.NANOSECONDS.toMillis(probe.longestGapNanos(0, Long.MAX_VALUE)), probe.errors().size());
        probe.errors().stream().limit(10).forEach(e -> failures.add("probe: " + e));
        failures.addAll(ReshardReport.probeProblems(Map.of("-", WriteProbe.idsOn(s1)), acknowledged).stream().limit(20).toList());
        out.println(outcome.describe());
        if (outcome.diedEarly()) {
            failures.add(outcome.name() + " ended before the bench stopped it: " + outcome.errorLines());
        }
        long mismatches = ready.path("diff").path("mismatches").asLong();
        long compared = ready.path("diff").path("rows_compared").asLong();
        if (mismatches != 0 || compared == 0) {
            failures.add("the diff is not clean: " + ready.path("diff"));
        }
        if (!job.path("phase").asText().equals("done")) {
            failures.add("the job is " + job.path("phase").asText() + ", not done");
        }
        for (String table : TABLES) {
            String engine = s1.queryString("SELECT ENGINE FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'sbtest' AND TABLE_NAME = '"
                    + table.substring(table.indexOf('.') + 1) + "'");
            if (!"ROCKSDB".equalsIgnoreCase(engine)) {
                failures.add(table + " on s1 is " + engine + ", not ROCKSDB");
            }
        }
        out.println("job phases: " + JobsApi.phases(job));
        out.println("job tables: " + job.path("tables"));
        out.println("job cutover: " + job.path("checkpoints").path("cutover"));
        long copied = JobsApi.rowsCopied(ready);
        double copySeconds = JobsApi.seconds(ready, "copying", "streaming");
        double diffSeconds = JobsApi.seconds(ready, "diffing", "ready");
        long held = job.path("checkpoints").path("cutover").path("writes_held_ms").asLong(-1);
        out.println();
        out.println("| measure | move job |");
        out.println("|---|---|");
        JsonNode sizes = ready.path("checkpoints").path("sizes");
        for (String table : TABLES) {
            JsonNode size = sizes.path(table);
            out.printf(Locale.ROOT, "| %s size | before: %s, %,d bytes, ~%,d rows; after: %s, %,d bytes, ~%,d rows (%.2fx) |%n", table,
                    size.path("source_engine").asText("?"), size.path("source_bytes").asLong(), size.path("source_rows_estimate").asLong(),
                    size.path("target_engine").asText("?"), size.path("target_bytes").asLong(), size.path("target_rows_estimate").asLong(),
                    size.path("target_bytes").asDouble() / size.path("source_bytes").asDouble());
            if (size.isMissingNode() || size.path("source_bytes").asLong() <= 0 || size.path("target_bytes").asLong() <= 0) {
                failures.add("checkpoints.sizes does not report " + table + ": " + sizes);
            }
        }
        out.printf(Locale.ROOT, "| copy | %,d rows in %.1f s: %,.0f rows/s |%n", copied, copySeconds, copied / copySeconds);
        out.printf(Locale.ROOT, "| diff | %,d rows in %.1f s: %,.0f rows/s, %d mismatches |%n", compared, diffSeconds,
                compared / diffSeconds, mismatches);
        out.printf(Locale.ROOT, "| cutover pause (p100 of the probe, %,d acknowledged writes) | %d ms |%n", acknowledged.size(), pauseMs);
        out.printf(Locale.ROOT, "| writes held (checkpoints.cutover.writes_held_ms) | %s |%n", held < 0 ? "not reported" : held + " ms");
        out.printf(Locale.ROOT, "| sysbench | %.0f tps, %.0f retryable errors, %s |%n", outcome.totals().tps(), outcome.totals().errors(),
                outcome.diedEarly() ? "ENDED EARLY" : "no unretryable error");
        out.printf(Locale.ROOT, "| rows | %,d in sbtest1 | %n", options.rows());
        out.printf(Locale.ROOT, "| cutover requests | %d |%n", attempts);
        out.printf(Locale.ROOT, "| elapsed | %.0f s |%n", (System.nanoTime() - begun) / 1e9);
        out.printf(Locale.ROOT, "every acknowledged probe write (%,d) checked on s1: %s; diff %s%n", acknowledged.size(),
                failures.isEmpty() ? "present once" : "see the failures", mismatches == 0 && compared > 0 ? "clean (checksums equal)" : "NOT clean");
        failures.forEach(f -> err.println("FAILED: " + f));
        return failures.isEmpty() ? 0 : 1;
    }

    private static long count(Node node) {
        return Long.parseLong(node.queryString("SELECT COUNT(*) FROM sbtest.sbtest1"));
    }

    /** The proxy's config: s0 (InnoDB, its replica) and s1 (MyRocks), sbtest's two tables unsharded on s0; file store. */
    static String yaml(Topology topology) {
        StringBuilder yaml = new StringBuilder(BenchCommand.proxyYaml(topology)).append("shards:\n");
        for (String name : List.of("s0", "s1")) {
            Shard shard = topology.shard(name);
            yaml.append(String.format(Locale.ROOT, "  - { name: %s, engine: %s, primary: \"%s\", replicas: [%s], key_range: \"%s\" }%n",
                    name, shard.engine().configName(), shard.primary().address(),
                    String.join(", ", shard.replicas().stream().map(node -> "\"" + node.address() + "\"").toList()),
                    name.equals("s0") ? "-80" : "80-"));
        }
        return yaml.append("""
                schemas:
                  - name: sbtest
                    tables:
                      sbtest1: { type: unsharded, shard: s0 }
                      probe: { type: unsharded, shard: s0 }
                """).toString();
    }
}
