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
 * in the same run against one MariaDB directly, through Shardgate in front of that one server, and
 * through Shardgate in front of two shards with the table sharded by {@code id} (loaded through
 * Shardgate). All servers are InnoDB and share this machine's cores, so two shards add no hardware:
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
            String single = head + "shards: [ { name: one, primary: \"" + one.address() + "\" } ]\n";
            String sharded = head + """
                    shards:
                      - { name: s0, primary: "%s", key_range: "-80" }
                      - { name: s1, primary: "%s", key_range: "80-" }
                    schemas:
                      - name: sbtest
                        tables:
                          sbtest1: { shard_key: id, vindex: hash }
                    """.formatted(topology.shard("s0").primary().address(), topology.shard("s1").primary().address());
            BenchCommand.Sysbench direct = new BenchCommand.Sysbench(one.port(), user, password);
            direct.run("oltp_point_select", 4, List.of("--table-size=100000", "--auto-inc=off"), "prepare");
            try (ShardgateProxy oneShard = ShardgateProxy.start(new ConfigLoader().parse(single));
                 ShardgateProxy twoShards = ShardgateProxy.start(new ConfigLoader().parse(sharded))) {
                BenchCommand.Sysbench throughOne = new BenchCommand.Sysbench(oneShard.port(), user, password);
                BenchCommand.Sysbench throughTwo = new BenchCommand.Sysbench(twoShards.port(), user, password);
                throughTwo.run("oltp_point_select", 4, List.of("--table-size=100000", "--auto-inc=off", "--create_secondary=off"),
                        "prepare");
                out.printf(Locale.ROOT, "sysbench oltp_point_select, 1 table x 100k rows, %d s per run, MariaDB %s%n%n", seconds,
                        one.queryString("SELECT VERSION()"));
                out.println("| threads | direct, 1 server tps | Shardgate, 1 shard tps | Shardgate, 2 shards tps | 2 shards / direct"
                        + " | 2 shards / 1 shard | p50 ms direct / 1 shard / 2 shards |");
                out.println("|---|---|---|---|---|---|---|");
                List<String> failures = new ArrayList<>();
                for (int threads : THREADS) {
                    SysbenchResult d = SysbenchResult.parse(direct.run("oltp_point_select", threads, BenchCommand.timed(seconds), "run"));
                    SysbenchResult s1 = SysbenchResult.parse(throughOne.run("oltp_point_select", threads, BenchCommand.timed(seconds), "run"));
                    SysbenchResult s2 = SysbenchResult.parse(throughTwo.run("oltp_point_select", threads, BenchCommand.timed(seconds), "run"));
                    if (d.errors() + s1.errors() + s2.errors() > 0) {
                        failures.add(threads + " threads: errors " + d.errors() + " / " + s1.errors() + " / " + s2.errors());
                    }
                    out.printf(Locale.ROOT, "| %d | %.0f | %.0f | %.0f | %.2fx | %.2fx | %.3f / %.3f / %.3f |%n", threads, d.tps(), s1.tps(),
                            s2.tps(), s2.tps() / d.tps(), s2.tps() / s1.tps(), d.p50Millis(), s1.p50Millis(), s2.p50Millis());
                    out.flush();
                }
                failures.forEach(f -> err.println("errors: " + f));
                return failures.isEmpty() ? 0 : 1;
            }
        }
    }
}
