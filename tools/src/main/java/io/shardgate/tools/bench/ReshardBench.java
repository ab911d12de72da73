package io.shardgate.tools.bench;

import com.fasterxml.jackson.databind.JsonNode;
import io.shardgate.replication.topology.EtcdCluster;
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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * {@code shardgate bench reshard [--rows N] [--time-before S] [--threads N]}: issue 21's acceptance run as a bench. Shards
 * s0 and s1 (InnoDB, a GTID replica each) hold {@code sbtest.sbtest1} sharded by {@code id} (hash), behind two packaged
 * proxies on a 1-member etcd. Sysbench {@code oltp_read_write} and a {@link WriteProbe} run through each proxy; under that
 * load the baselines run on s1's rows (dump | load into an empty InnoDB server, chunked CRC), then a job splits s1 over s2
 * (InnoDB, 80-c0) and s3 (MyRocks, c0-), cuts over and is completed. Then every acknowledged probe write must be on its owner once, the diff
 * clean, sysbench without unretryable errors; the table compares the job's copy and diff with the baselines and gives
 * each probe's longest pause. Everything started is stopped, also on failure. {@code --skip-trx} runs sysbench's statements
 * in autocommit ({@code --skip_trx=on}): no transaction then writes to two shards, so none commits with XA.
 */
final class ReshardBench {
    private static final String TOKEN = "bench-token";
    private static final List<String> JVM_OPTIONS = List.of("-Xmx512m");
    private static final int MAX_CUTOVER_ATTEMPTS = 3;
    private final PrintStream out;
    private final PrintStream err;

    ReshardBench(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    /** The command line; {@code proxyJar} null means the one next to the tools jar. */
    record Options(int rows, int secondsBefore, int threads, boolean skipTrx, Path proxyJar) {
        static Options parse(List<String> args) {
            int rows = 1_000_000;
            int before = 10;
            int threads = 2;
            boolean skipTrx = false;
            Path jar = null;
            for (int i = 0; i < args.size(); i++) {
                switch (args.get(i)) {
                    case "--rows" -> rows = BenchCommand.positive("--rows", args, ++i);
                    case "--time-before" -> before = BenchCommand.positive("--time-before", args, ++i);
                    case "--threads" -> threads = BenchCommand.positive("--threads", args, ++i);
                    case "--skip-trx" -> skipTrx = true;
                    case "--proxy-jar" -> {
                        if (++i >= args.size()) {
                            throw new IllegalArgumentException("--proxy-jar needs a path");
                        }
                        jar = Path.of(args.get(i));
                    }
                    default -> throw new IllegalArgumentException("unknown argument '" + args.get(i) + "'");
                }
            }
            return new Options(rows, before, threads, skipTrx, jar);
        }
    }

    int run(List<String> args) throws IOException, InterruptedException {
        Options options;
        try {
            options = Options.parse(args);
        } catch (IllegalArgumentException e) {
            err.println("shardgate bench reshard: " + e.getMessage() + " (expected: [--rows N] [--time-before S] [--threads N] [--skip-trx])");
            return 2;
        }
        Path jar = options.proxyJar() != null ? options.proxyJar() : MemoryBench.besideToolsJar();
        return BenchScope.run("bench reshard", out, err, scope -> run(options, jar, scope));
    }

    private int run(Options options, Path jar, BenchScope scope)
            throws IOException, InterruptedException, SQLException {
        long begun = System.nanoTime();
        EtcdCluster etcd = EtcdCluster.start(1);
        scope.started(etcd);
        Topology topology = Topology.start(TopologySpec.builder().shard("s0", Engine.INNODB, 1).shard("s1", Engine.INNODB, 1)
                .shard("s2", Engine.INNODB, 0).shard("s3", Engine.ROCKSDB, 0).shard("dump", Engine.INNODB, 0).build());
        scope.started(topology);
        String user = topology.accounts().user();
        String password = topology.accounts().password();
        Node s1 = topology.shard("s1").primary();
        out.printf(Locale.ROOT, "bench reshard: %,d rows, MariaDB %s, %s; etcd %s; logs in %s%n", options.rows(),
                s1.queryString("SELECT VERSION()"), topology.launcherDescription(), etcd.endpoint(0), scope.logs());
        Node s0 = topology.shard("s0").primary();
        long preparing = System.nanoTime();
        for (Node shard : List.of(s0, s1)) {
            shard.execute("CREATE DATABASE sbtest", WriteProbe.DDL);
        }
        Map<String, Node> shards = new LinkedHashMap<>();
        shards.put("-80", s0);
        shards.put("80-", s1);
        ShardedLoad.load(shards, options.rows());
        long sourceRows = count(s1);
        out.printf(Locale.ROOT, "prepared %,d sysbench rows straight onto the shards, each on the owner of its id, in %.1f s:"
                + " %,d on s0, %,d on s1%n", options.rows(), (System.nanoTime() - preparing) / 1e9, count(s0), sourceRows);
        // The replicas apply the load after their primaries; the job throttles while a source replica lags over 1 s, the
        // baselines do not: both start once the replicas have caught up.
        long replicating = System.nanoTime();
        topology.awaitReplication(java.time.Duration.ofMinutes(15));
        out.printf(Locale.ROOT, "replicas caught up with the load %.1f s later%n", (System.nanoTime() - replicating) / 1e9);
        List<ProxyProcess> proxies = new ArrayList<>();
        String prefix = "/shardgate/bench-reshard-" + System.nanoTime();
        for (int i = 0; i < 2; i++) {
            ProxyProcess proxy = ProxyProcess.start(jar, JVM_OPTIONS, yaml(topology, etcd, prefix, i, scope.logs()), scope.logs(), "proxy-" + i);
            scope.started(proxy);
            proxies.add(proxy);
        }
        out.printf("two proxies on port %d and %d (admin %d, %d)%n", proxies.get(0).port(), proxies.get(1).port(),
                proxies.get(0).adminPort(), proxies.get(1).adminPort());

        KeyRange moving = KeyRange.parse("80-");
        List<SysbenchLoad> loads = new ArrayList<>();
        List<WriteProbe> probes = new ArrayList<>();
        for (int i = 0; i < proxies.size(); i++) {
            SysbenchLoad load = SysbenchLoad.start("sysbench-proxy-" + i, proxies.get(i).port(), user, password, options.threads(),
                    options.rows(), options.skipTrx(), scope.logs());
            scope.started(load);
            loads.add(load);
            WriteProbe probe = new WriteProbe(i, proxies.get(i).port(), user, password, moving);
            scope.started(probe);
            probes.add(probe);
            probe.start();
        }
        out.printf("load: sysbench oltp_read_write%s, %d threads through each proxy, and a probe writing every 10 ms through each;"
                + " %d s before the job%n", options.skipTrx() ? " --skip_trx=on" : "", options.threads(), options.secondsBefore());
        TimeUnit.SECONDS.sleep(options.secondsBefore());
        // The baselines run under the same load as the job, so that the ratios compare like with like.
        ReshardBaselines.Rate dump = ReshardBaselines.dumpLoad(s1, topology.shard("dump").primary(), user, password);
        out.printf(Locale.ROOT, "baseline, under the load: mariadb-dump | mariadb of s1's sbtest1 into an empty InnoDB server:"
                + " %,d rows in %.1f s%n", dump.rows(), dump.seconds());
        ReshardBaselines.Rate crc = ReshardBaselines.chunkedCrc(s1);
        out.printf(Locale.ROOT, "baseline, under the load: chunked CRC of s1's sbtest1: %,d rows in %.2f s%n", crc.rows(), crc.seconds());

        JobsApi jobs = new JobsApi(proxies.get(0).adminPort(), TOKEN);
        Node s2 = topology.shard("s2").primary();
        Node s3 = topology.shard("s3").primary();
        String id = jobs.reshard("s1", List.of(new JobsApi.Target("s2", s2.address(), "innodb", "80-c0"),
                new JobsApi.Target("s3", s3.address(), "rocksdb", "c0-")));
        out.println("job " + id + ": s1 over s2 (InnoDB, 80-c0) and s3 (MyRocks, c0-); waiting for ready");
        JsonNode ready = jobs.await(id, Set.of("ready"), Duration.ofHours(2));
        out.printf(Locale.ROOT, "ready: copied %,d rows, diff compared %,d rows, %d mismatches%n", JobsApi.rowsCopied(ready),
                ready.path("diff").path("rows_compared").asLong(), ready.path("diff").path("mismatches").asLong());

        long cutoverFrom = System.nanoTime();
        JobsApi.Switched switched = jobs.cutover(id, MAX_CUTOVER_ATTEMPTS, out);
        JsonNode after = switched.job();
        int attempts = switched.attempts();
        long cutoverTo = System.nanoTime();
        out.printf(Locale.ROOT, "%s %.1f s after the cutover was asked%n", after.path("phase").asText(), (cutoverTo - cutoverFrom) / 1e9);
        WriteProbe.awaitMore(probes, 100);
        if (after.path("phase").asText().equals("switched")) {
            // The reverse streams ran meanwhile; the bench keeps the new layout.
            jobs.act(id, "complete");
            jobs.await(id, Set.of("done"), Duration.ofMinutes(2));
            out.println("completed: the reverse streams stopped");
        }

        List<SysbenchLoad.Outcome> outcomes = new ArrayList<>();
        for (WriteProbe probe : probes) {
            probe.close();
        }
        for (SysbenchLoad load : loads) {
            outcomes.add(load.stop());
        }
        return report(options, topology, jobs.job(id), ready, sourceRows, dump, crc, probes, outcomes, attempts, cutoverFrom,
                cutoverTo, begun);
    }

    private int report(Options options, Topology topology, JsonNode job, JsonNode ready, long sourceRows, ReshardBaselines.Rate dump,
                       ReshardBaselines.Rate crc, List<WriteProbe> probes, List<SysbenchLoad.Outcome> outcomes, int attempts,
                       long cutoverFrom, long cutoverTo, long begun) throws SQLException {
        Map<String, Node> owners = new LinkedHashMap<>();
        owners.put("-80", topology.shard("s0").primary());
        owners.put("80-c0", topology.shard("s2").primary());
        owners.put("c0-", topology.shard("s3").primary());
        Map<String, List<Long>> rows = new LinkedHashMap<>();
        for (Map.Entry<String, Node> owner : owners.entrySet()) {
            rows.put(owner.getKey(), WriteProbe.idsOn(owner.getValue()));
        }
        List<Long> acknowledged = new ArrayList<>();
        List<Long> pauses = new ArrayList<>();
        List<Integer> counts = new ArrayList<>();
        List<String> failures = new ArrayList<>();
        for (int i = 0; i < probes.size(); i++) {
            WriteProbe probe = probes.get(i);
            acknowledged.addAll(probe.ackedIds());
            counts.add(probe.acknowledged());
            pauses.add(TimeUnit.NANOSECONDS.toMillis(probe.longestGapNanos(cutoverFrom, cutoverTo)));
            out.printf(Locale.ROOT, "probe proxy-%d: %,d writes acknowledged, longest pause over the whole run %d ms, %d errors%n", i,
                    probe.acknowledged(), TimeUnit.NANOSECONDS.toMillis(probe.longestGapNanos(0, Long.MAX_VALUE)), probe.errors().size());
            probe.errors().stream().limit(10).forEach(e -> failures.add("probe proxy-" + probes.indexOf(probe) + ": " + e));
        }
        failures.addAll(ReshardReport.probeProblems(rows, acknowledged).stream().limit(20).toList());
        for (SysbenchLoad.Outcome outcome : outcomes) {
            out.println(outcome.describe());
            if (outcome.diedEarly()) {
                failures.add(outcome.name() + " ended before the bench stopped it: " + outcome.errorLines());
            }
        }
        long mismatches = ready.path("diff").path("mismatches").asLong();
        long compared = ready.path("diff").path("rows_compared").asLong();
        if (mismatches != 0 || compared == 0) {
            failures.add("the diff is not clean: " + ready.path("diff"));
        }
        long held = job.path("checkpoints").path("cutover").path("writes_held_ms").asLong(-1);
        out.println("job phases: " + JobsApi.phases(job));
        out.println("job tables: " + job.path("tables"));
        out.println("job cutover: " + job.path("checkpoints").path("cutover"));
        ReshardReport report = new ReshardReport(options.rows(), sourceRows, JobsApi.rowsCopied(ready),
                JobsApi.seconds(ready, "copying", "streaming"), dump, compared, JobsApi.seconds(ready, "diffing", "ready"), crc,
                mismatches, pauses, held, counts, attempts, (System.nanoTime() - begun) / 1e9);
        out.println();
        report.print(out);
        out.printf(Locale.ROOT, "every acknowledged probe write (%,d) checked on the owner of its key: %s%n", acknowledged.size(),
                failures.isEmpty() ? "present once, on its owner" : "see the failures");
        failures.forEach(f -> err.println("FAILED: " + f));
        return failures.isEmpty() ? 0 : 1;
    }

    private static long count(Node node) {
        return Long.parseLong(node.queryString("SELECT COUNT(*) FROM sbtest.sbtest1"));
    }

    /** Proxy {@code index}'s config: s0 (-80) and s1 (80-) with their replicas, sbtest's tables by id (hash), etcd's store. */
    static String yaml(Topology topology, EtcdCluster etcd, String prefix, int index, Path dir) {
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
                      sbtest1: { shard_key: id, vindex: hash }
                      probe: { shard_key: id, vindex: hash }
                topology:
                  store: etcd
                  etcd: { endpoints: [%s], prefix: %s, dial_timeout_ms: 1000 }
                  proxy_id: proxy-%d
                  local_copy: %s
                """.formatted(String.join(", ", etcd.endpoints()), prefix, index, dir.resolve("proxy-" + index + "-topology.json")))
                .toString();
    }
}
