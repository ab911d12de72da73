package io.shardgate.tools.bench;

import io.shardgate.proxy.ShardgateProxy;
import io.shardgate.proxy.config.ConfigLoader;
import io.shardgate.replication.topology.Node;
import io.shardgate.replication.topology.Topology;
import io.shardgate.replication.topology.TopologySpec;
import io.shardgate.storage.Engine;

import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code shardgate bench shards [--time S]}: sysbench {@code oltp_point_select} (1 table, 100k rows)
 * in the same run against one MariaDB directly, through HAProxy (a plain TCP relay, the reference) and
 * through Shardgate in front of that one server, and through Shardgate in front of two shards with the
 * table sharded by {@code id} (loaded through Shardgate); the four run back to back for each thread count,
 * with the relays' CPU per statement. All servers are InnoDB and share this machine's cores, so two shards add no hardware:
 * the numbers show what routing by shard key costs, not what more servers would add.
 */
final class ShardBench {
    private static final List<Integer> THREADS = List.of(1, 16);
    private final PrintStream out;
    private final PrintStream err;

    ShardBench(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    int run(List<String> args) throws IOException, InterruptedException {
        int seconds = BenchCommand.seconds("shards", args, err);
        if (seconds < 0) {
            return 2;
        }
        try (Topology topology = Topology.start(TopologySpec.builder().shard("one", Engine.INNODB, 0)
                .shard("s0", Engine.INNODB, 0).shard("s1", Engine.INNODB, 0).build())) {
            String user = topology.accounts().user();
            String password = topology.accounts().password();
            for (String shard : List.of("one", "s0", "s1")) {
                topology.shard(shard).primary().execute("CREATE DATABASE sbtest");
            }
            Node one = topology.shard("one").primary();
            String head = BenchCommand.proxyYaml(topology);
            String single = BenchCommand.oneShardYaml(head, one);
            String sharded = BenchCommand.twoShardsYaml(head, topology.shard("s0").primary(), topology.shard("s1").primary(),
                    "sbtest", "sbtest1");
            BenchCommand.Sysbench direct = new BenchCommand.Sysbench(one.port(), user, password);
            direct.run("oltp_point_select", 4, List.of("--table-size=100000", "--auto-inc=off"), "prepare");
            try (HaproxyRelay haproxy = HaproxyRelay.start(one.address());
                 ShardgateProxy oneShard = ShardgateProxy.start(new ConfigLoader().parse(single));
                 ShardgateProxy twoShards = ShardgateProxy.start(new ConfigLoader().parse(sharded))) {
                BenchCommand.Sysbench relay = new BenchCommand.Sysbench(haproxy.port(), user, password);
                BenchCommand.Sysbench throughOne = new BenchCommand.Sysbench(oneShard.port(), user, password);
                BenchCommand.Sysbench throughTwo = new BenchCommand.Sysbench(twoShards.port(), user, password);
                throughTwo.run("oltp_point_select", 4, List.of("--table-size=100000", "--auto-inc=off", "--create_secondary=off"),
                        "prepare");
                int warmUp = Math.min(5, seconds);
                for (BenchCommand.Sysbench proxied : List.of(throughOne, throughTwo)) {
                    proxied.run("oltp_point_select", 16, BenchCommand.timed(warmUp), "run");
                }
                out.printf(Locale.ROOT, "sysbench oltp_point_select, 1 table x 100k rows, %d s per run (after a %d s warm-up of"
                        + " each Shardgate), MariaDB %s; targets alternated per row%n", seconds, warmUp,
                        one.queryString("SELECT VERSION()"));
                out.println("CPU us/stmt: CPU time of the HAProxy process, or of this JVM (the proxies), per statement");
                out.println();
                out.println("| threads | direct, 1 server tps | HAProxy, 1 server tps | Shardgate, 1 shard tps | Shardgate, 2 shards tps"
                        + " | HAProxy / direct | 1 shard / direct | 2 shards / direct | 2 shards / 1 shard"
                        + " | avg ms direct / HAProxy / 1 shard / 2 shards | p50 ms direct / HAProxy / 1 shard / 2 shards"
                        + " | CPU us/stmt HAProxy / 1 shard / 2 shards |");
                out.println("|---|---|---|---|---|---|---|---|---|---|---|---|");
                List<String> failures = new ArrayList<>();
                CpuClock self = CpuClock.self();
                for (int threads : THREADS) {
                    List<String> timed = BenchCommand.timed(seconds);
                    Measured d = Measured.run(direct, null, "oltp_point_select", threads, timed);
                    Measured h = Measured.run(relay, haproxy.cpu(), "oltp_point_select", threads, timed);
                    Measured s1 = Measured.run(throughOne, self, "oltp_point_select", threads, timed);
                    Measured s2 = Measured.run(throughTwo, self, "oltp_point_select", threads, timed);
                    long errors = d.result().errors() + h.result().errors() + s1.result().errors() + s2.result().errors();
                    if (errors > 0) {
                        failures.add(threads + " threads: " + errors + " errors");
                    }
                    out.println(row(threads, d, h, s1, s2));
                    out.flush();
                }
                failures.forEach(f -> err.println("errors: " + f));
                return failures.isEmpty() ? 0 : 1;
            }
        }
    }

    static String row(int threads, Measured d, Measured h, Measured s1, Measured s2) {
        return String.format(Locale.ROOT, "| %d | %.0f | %.0f | %.0f | %.0f | %.2fx | %.2fx | %.2fx | %.2fx"
                        + " | %.3f / %.3f / %.3f / %.3f | %.3f / %.3f / %.3f / %.3f | %s / %s / %s |",
                threads, d.tps(), h.tps(), s1.tps(), s2.tps(), h.tps() / d.tps(), s1.tps() / d.tps(), s2.tps() / d.tps(),
                s2.tps() / s1.tps(), d.avgMillis(), h.avgMillis(), s1.avgMillis(), s2.avgMillis(), d.result().p50Millis(),
                h.result().p50Millis(), s1.result().p50Millis(), s2.result().p50Millis(), Measured.cpu(h.cpuMicrosPerStatement()),
                Measured.cpu(s1.cpuMicrosPerStatement()), Measured.cpu(s2.cpuMicrosPerStatement()));
    }
}
