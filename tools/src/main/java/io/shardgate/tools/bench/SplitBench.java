package io.shardgate.tools.bench;

import io.shardgate.proxy.ShardgateProxy;
import io.shardgate.proxy.config.ConfigLoader;
import io.shardgate.proxy.routing.BackendRow;
import io.shardgate.replication.topology.Node;
import io.shardgate.replication.topology.Topology;
import io.shardgate.replication.topology.TopologySpec;
import io.shardgate.storage.Engine;

import java.io.IOException;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code shardgate bench split [--time S]}: sysbench {@code oltp_read_only --skip_trx=on} (1 table,
 * 100k rows, 16 threads) against the primary directly, then through Shardgate in front of the
 * primary and two replicas, in the same run. Prints tps, the ratio, and how many reads each
 * replica served (the spread).
 */
final class SplitBench {
    private final PrintStream out;
    private final PrintStream err;

    SplitBench(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    int run(List<String> args) throws IOException, InterruptedException {
        int seconds = BenchCommand.seconds("split", args, err);
        if (seconds < 0) {
            return 2;
        }
        try (Topology topology = Topology.start(TopologySpec.builder().shard("s0", Engine.INNODB, 2).build())) {
            Node primary = topology.shard("s0").primary();
            primary.execute("CREATE DATABASE sbtest");
            String user = topology.accounts().user();
            String password = topology.accounts().password();
            BenchCommand.Sysbench direct = new BenchCommand.Sysbench(primary.port(), user, password);
            direct.run("oltp_read_only", 4, List.of("--table-size=100000"), "prepare");
            for (Node replica : topology.shard("s0").replicas()) {
                if (!replica.awaitGtid(primary.gtidBinlogPos(), Duration.ofMinutes(2))) {
                    throw new IOException(replica + " did not catch up with the prepared table");
                }
            }
            String yaml = BenchCommand.proxyYaml(topology) + "shards: [ { name: s0, primary: \"%s\", replicas: [ \"%s\", \"%s\" ] } ]\n"
                    .formatted(primary.address(), topology.shard("s0").replica(0).address(), topology.shard("s0").replica(1).address());
            try (ShardgateProxy proxy = ShardgateProxy.start(new ConfigLoader().parse(yaml))) {
                BenchCommand.Sysbench through = new BenchCommand.Sysbench(proxy.port(), user, password);
                List<String> extra = new ArrayList<>(BenchCommand.timed(seconds));
                extra.add("--skip_trx=on");
                out.printf(Locale.ROOT, "sysbench oltp_read_only --skip_trx=on, 1 table x 100k rows, 16 threads, %d s per run%n%n",
                        seconds);
                SysbenchResult d = SysbenchResult.parse(direct.run("oltp_read_only", 16, extra, "run"));
                Map<String, Long> before = served(proxy);
                SysbenchResult s = SysbenchResult.parse(through.run("oltp_read_only", 16, extra, "run"));
                Map<String, Long> after = served(proxy);
                out.println("| path | tps | p50 / p95 ms | errors |");
                out.println("|---|---|---|---|");
                out.printf(Locale.ROOT, "| primary directly | %.0f | %.3f / %.3f | %d |%n", d.tps(), d.p50Millis(), d.p95Millis(), d.errors());
                out.printf(Locale.ROOT, "| Shardgate, primary + 2 replicas | %.0f (%.2fx) | %.3f / %.3f | %d |%n", s.tps(),
                        s.tps() / d.tps(), s.p50Millis(), s.p95Millis(), s.errors());
                out.println();
                out.println("| backend | statements served during the Shardgate run |");
                out.println("|---|---|");
                for (BackendRow row : proxy.backendReport().rows()) {
                    String key = row.role() + " " + row.address();
                    out.printf(Locale.ROOT, "| %s | %d |%n", key, after.get(key) - before.getOrDefault(key, 0L));
                }
                return d.errors() + s.errors() == 0 ? 0 : 1;
            }
        }
    }

    private static Map<String, Long> served(ShardgateProxy proxy) {
        Map<String, Long> served = new HashMap<>();
        for (BackendRow row : proxy.backendReport().rows()) {
            served.put(row.role() + " " + row.address(), row.served());
        }
        return served;
    }
}
