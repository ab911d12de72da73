package io.shardgate.tools.bench;

import io.shardgate.replication.topology.Node;
import io.shardgate.replication.topology.Topology;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code shardgate bench [sysbench|split|shards|load|apply|memory|reshard|move] ...}: picks the bench, and holds what they share
 * (argument checks, the proxy's config head, the sysbench runner). The default bench is {@link RelayBench}.
 */
public final class BenchCommand {
    private final PrintStream out;
    private final PrintStream err;

    public BenchCommand(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    public int run(List<String> args) throws IOException, InterruptedException {
        String sub = args.isEmpty() ? "" : args.get(0);
        List<String> rest = args.isEmpty() ? args : args.subList(1, args.size());
        return switch (sub) {
            case "apply" -> new ApplyBench().run(rest, out, err);
            case "shards" -> new ShardBench(out, err).run(rest);
            case "split" -> new SplitBench(out, err).run(rest);
            case "load" -> new LoadBench(out, err).run(rest);
            case "memory" -> new MemoryBench(out, err).run(rest);
            case "reshard" -> new ReshardBench(out, err).run(rest);
            case "move" -> new MoveBench(out, err).run(rest);
            default -> new RelayBench(out, err).run(args);
        };
    }

    /** The positive whole number after option {@code args[i - 1]}, or IllegalArgumentException naming the option. */
    static int positive(String option, List<String> args, int i) {
        if (i >= args.size()) {
            throw new IllegalArgumentException(option + " needs a number");
        }
        try {
            int value = Integer.parseInt(args.get(i));
            if (value > 0) {
                return value;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException(option + " needs a positive whole number, not '" + args.get(i) + "'");
    }

    /**
     * The {@code --time S} of a bench subcommand (20 by default), or -1 after printing what is wrong
     * with {@code args}.
     */
    static int seconds(String command, List<String> args, PrintStream err) {
        int seconds = 20;
        for (int i = 0; i < args.size(); i++) {
            if (args.get(i).equals("--time")) {
                try {
                    seconds = positive("--time", args, ++i);
                } catch (IllegalArgumentException e) {
                    err.println("shardgate bench " + command + ": " + e.getMessage());
                    return -1;
                }
            } else {
                err.println("shardgate bench " + command + ": unknown argument '" + args.get(i) + "' (expected: [--time S])");
                return -1;
            }
        }
        return seconds;
    }

    /**
     * A bench proxy's config up to its shards: free ports, and the topology's account as client and backend user.
     * Backend logins may take 30 s instead of 2: on a loaded shared machine a slow login must not abort a run (the
     * timeout bounds a failure, it costs nothing on the measured path).
     */
    static String proxyYaml(Topology topology) {
        return proxyYaml(topology, "");
    }

    /** {@link #proxyYaml(Topology)} with more keys in its {@code limits} ({@code "max_buffered_rows: 10"}; "" for none). */
    static String proxyYaml(Topology topology, String moreLimits) {
        return """
                listen: { host: 127.0.0.1, port: 0 }
                admin: { host: 127.0.0.1, port: 0, token: bench-token }
                users: [ { name: %s, password: "%s" } ]
                backend_user: { name: %s, password: "%s" }
                limits: { backend_connect_timeout_ms: 30000%s }
                """.formatted(topology.accounts().user(), topology.accounts().password(), topology.accounts().user(),
                topology.accounts().password(), moreLimits.isEmpty() ? "" : ", " + moreLimits);
    }

    /** A bench proxy's config ({@code head}: {@link #proxyYaml}) with {@code server} as its one, unsharded shard. */
    static String oneShardYaml(String head, Node server) {
        return head + "shards: [ { name: one, primary: \"" + server.address() + "\" } ]\n";
    }

    /** A bench proxy's config with {@code schema.table} sharded by {@code id} (hash) over {@code s0} (-80) and {@code s1} (80-). */
    static String twoShardsYaml(String head, Node s0, Node s1, String schema, String table) {
        return head + """
                shards:
                  - { name: s0, primary: "%s", key_range: "-80" }
                  - { name: s1, primary: "%s", key_range: "80-" }
                schemas:
                  - name: %s
                    tables:
                      %s: { shard_key: id, vindex: hash }
                """.formatted(s0.address(), s1.address(), schema, table);
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
