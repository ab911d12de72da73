package io.shardgate.tools.bench;

import io.shardgate.proxy.ShardgateProxy;
import io.shardgate.proxy.config.ConfigLoader;
import io.shardgate.replication.topology.Node;
import io.shardgate.replication.topology.Topology;
import io.shardgate.replication.topology.TopologySpec;
import io.shardgate.storage.Engine;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code shardgate bench [sysbench] [--time S]}: sysbench {@code oltp_point_select} and
 * {@code oltp_read_only} (1 table, 100k rows) at 1 and 16 threads, against one MariaDB primary
 * directly and through Shardgate, in the same run, so the ratios compare like with like.
 */
public final class BenchCommand {
    private static final List<String> TESTS = List.of("oltp_point_select", "oltp_read_only");
    private static final List<Integer> THREADS = List.of(1, 16);

    private final PrintStream out;
    private final PrintStream err;

    public BenchCommand(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    public int run(List<String> args) throws IOException, InterruptedException {
        if (!args.isEmpty() && args.get(0).equals("apply")) {
            return new ApplyBench().run(args.subList(1, args.size()), out, err);
        }
        if (!args.isEmpty() && args.get(0).equals("shards")) {
            return new ShardBench(out, err).run(args.subList(1, args.size()));
        }
        if (!args.isEmpty() && args.get(0).equals("split")) {
            return new SplitBench(out, err).run(args.subList(1, args.size()));
        }
        int seconds = 20;
        for (int i = 0; i < args.size(); i++) {
            switch (args.get(i)) {
                case "sysbench" -> {
                }
                case "--time" -> seconds = Integer.parseInt(args.get(++i));
                default -> {
                    err.println("shardgate bench: unknown argument '" + args.get(i) + "' (expected: [sysbench] [--time S])");
                    return 2;
                }
            }
        }
        try (Topology topology = Topology.start(TopologySpec.builder().shard("s0", Engine.INNODB, 0).build())) {
            Node primary = topology.shard("s0").primary();
            primary.execute("CREATE DATABASE sbtest");
            String yaml = proxyYaml(topology) + "shards: [ { name: s0, primary: \"" + primary.address() + "\" } ]\n";
            try (ShardgateProxy proxy = ShardgateProxy.start(new ConfigLoader().parse(yaml))) {
                Sysbench direct = new Sysbench(primary.port(), topology.accounts().user(), topology.accounts().password());
                Sysbench through = new Sysbench(proxy.port(), topology.accounts().user(), topology.accounts().password());
                direct.run("oltp_read_only", 4, List.of("--table-size=100000"), "prepare");
                out.printf(Locale.ROOT, "sysbench, 1 table x 100k rows, %d s per run, MariaDB %s, Shardgate on %s%n%n",
                        seconds, primary.queryString("SELECT VERSION()"), proxy.transportName());
                out.println("| test | threads | direct tps | Shardgate tps | ratio | direct p50 / p95 ms | Shardgate p50 / p95 ms | added p50 us |");
                out.println("|---|---|---|---|---|---|---|---|");
                List<String> failures = new ArrayList<>();
                for (String test : TESTS) {
                    for (int threads : THREADS) {
                        SysbenchResult d = SysbenchResult.parse(direct.run(test, threads, timed(seconds), "run"));
                        SysbenchResult s = SysbenchResult.parse(through.run(test, threads, timed(seconds), "run"));
                        if (d.errors() + s.errors() > 0) {
                            failures.add(test + " at " + threads + " threads: " + d.errors() + " errors direct, "
                                    + s.errors() + " through Shardgate");
                        }
                        out.printf(Locale.ROOT, "| %s | %d | %.0f | %.0f | %.2fx | %.3f / %.3f | %.3f / %.3f | %.0f |%n",
                                test, threads, d.tps(), s.tps(), s.tps() / d.tps(), d.p50Millis(), d.p95Millis(),
                                s.p50Millis(), s.p95Millis(), (s.p50Millis() - d.p50Millis()) * 1000);
                        out.flush();
                    }
                }
                failures.forEach(f -> err.println("errors: " + f));
                return failures.isEmpty() ? 0 : 1;
            }
        }
    }

    /**
     * The {@code --time S} of a bench subcommand (20 by default), or -1 after printing what is wrong
     * with {@code args}.
     */
    static int seconds(String command, List<String> args, PrintStream err) {
        int seconds = 20;
        for (int i = 0; i < args.size(); i++) {
            if (args.get(i).equals("--time") && i + 1 < args.size()) {
                seconds = Integer.parseInt(args.get(++i));
            } else {
                err.println("shardgate bench " + command + ": unknown argument '" + args.get(i) + "' (expected: [--time S])");
                return -1;
            }
        }
        return seconds;
    }

    /** A bench proxy's config up to its shards: free ports, and the topology's account as client and backend user. */
    static String proxyYaml(Topology topology) {
        return """
                listen: { host: 127.0.0.1, port: 0 }
                admin: { host: 127.0.0.1, port: 0, token: bench-token }
                users: [ { name: %s, password: "%s" } ]
                backend_user: { name: %s, password: "%s" }
                """.formatted(topology.accounts().user(), topology.accounts().password(), topology.accounts().user(),
                topology.accounts().password());
    }

    static List<String> timed(int seconds) {
        return List.of("--table-size=100000", "--time=" + seconds, "--histogram=on", "--report-interval=0");
    }

    /** One sysbench target. */
    record Sysbench(int port, String user, String password) {
        String run(String test, int threads, List<String> extra, String command) throws IOException, InterruptedException {
            List<String> cmd = new ArrayList<>(List.of("sysbench", test, "--db-driver=mysql", "--mysql-host=127.0.0.1",
                    "--mysql-port=" + port, "--mysql-user=" + user, "--mysql-password=" + password, "--mysql-db=sbtest",
                    "--tables=1", "--threads=" + threads));
            cmd.addAll(extra);
            cmd.add(command);
            Process process = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (process.waitFor() != 0) {
                throw new IOException(String.join(" ", cmd.subList(0, 2)) + " " + command + " failed:\n" + output);
            }
            return output;
        }
    }
}
