package io.shardgate.tools;

import io.shardgate.proxy.Main;
import io.shardgate.replication.topology.TopologyException;
import io.shardgate.tools.bench.BenchCommand;
import io.shardgate.tools.demo.DemoCommand;

import java.io.PrintStream;
import java.util.List;
import java.util.Map;

/**
 * Entry point of the tools jar ({@code tools/target/shardgate-tools.jar}): the commands that start local MariaDB
 * servers with the test-support topology, which the production jar does not contain. {@code ./shardgate demo} and
 * {@code ./shardgate bench} call it; every other command is the production jar's {@link Main}.
 */
public final class ToolsMain {
    static final String USAGE = """
            usage: shardgate-tools <command> [options]

            commands:
              demo                start a local two-shard topology (s0 InnoDB, s1 MyRocks) and the proxy
              bench [sysbench] [--time S]  sysbench direct vs HAProxy vs Shardgate (docs/benchmarks.md)
              bench split [--time S]       sysbench oltp_read_only --skip_trx=on: primary vs 2 replicas via Shardgate
              bench shards [--time S]      sysbench oltp_point_select: one server vs Shardgate over 1 and 2 shards
              bench load [--statements N]  multi-row INSERT loading: direct vs Shardgate over 1 and 2 shards
              bench apply [--transactions N]  change-stream apply vs a MariaDB replica (docs/benchmarks.md)
              bench memory [--rows N]      the proxy's heap under limits.max_buffered_rows (docs/benchmarks.md)
              bench reshard [--rows N]     split s1 under load through two proxies on etcd (docs/benchmarks.md)
              bench move [--rows N]        move sbtest1 InnoDB -> MyRocks under load through one proxy (docs/benchmarks.md)

            shardgate-tools <command> --help prints that command's usage.
            """;

    /** Each command's {@code --help} text (stdout, exit 0); also printed on stderr after a bad argument. */
    static final Map<String, String> COMMAND_USAGE = Map.of(
            "demo", """
                    usage: shardgate demo [--port P] [--admin-port P] [--cluster]
                      start two local shards (s0 InnoDB, s1 MyRocks; a primary and a replica each) and the proxy
                      on 127.0.0.1:3307 (admin 8307); port 0 picks a free port; Ctrl-C stops everything it started
                      --cluster: a local etcd and two proxies following one topology in it (3307 and 3308, admin 8307
                      and 8308), and a spare replica of s0 to add through the admin API
                    """,
            "bench", """
                    usage: shardgate bench [sysbench] [--time S] [--no-digests-compare]
                           shardgate bench split [--time S]
                           shardgate bench shards [--time S]
                           shardgate bench load [--rows-per-insert N] [--statements N] [--rounds N]
                           shardgate bench apply [--transactions N] [--schemas N] [--threads N] [--warmup N]
                                                 [--appliers sg1,sg4,mdb1,mdb4]
                           shardgate bench memory [--rows N] [--limit N] [--repeat N] [--proxy-jar PATH]
                           shardgate bench reshard [--rows N] [--time-before S] [--threads N] [--skip-trx] [--proxy-jar PATH]
                           shardgate bench move [--rows N] [--time-before S] [--threads N] [--proxy-jar PATH]
                      sysbench direct vs HAProxy (a TCP relay) vs Shardgate, and Shardgate with digests off
                      (--no-digests-compare skips it); split: the primary vs Shardgate over 2 replicas; shards: one
                      server vs HAProxy and Shardgate over 1 and 2 shards; load: 1,000-row INSERTs (200 by default)
                      direct vs HAProxy vs Shardgate over 1 and 2 shards, median of 3 rounds; apply: the change
                      stream vs a MariaDB replica; memory: the packaged proxy (-Xmx512m) over an InnoDB and a MyRocks
                      shard with limits.max_buffered_rows --limit (100000), --rows rows (3 x the limit) in two tables,
                      each query over the limit --repeat times (10): what the client got and the proxy's heap, then
                      the same with the limit above the rows; reshard: --rows sysbench rows (1000000) over s0 and s1,
                      two packaged proxies on etcd, sysbench oltp_read_write (--threads per proxy, 2) and a write
                      probe every 10 ms through each, --time-before seconds (10) before a job splits s1 over s2
                      (InnoDB) and s3 (MyRocks) and cuts over: copy and diff against dump | load and chunked CRC, the
                      longest pause of each probe, every acknowledged write on its owner; --skip-trx: sysbench in
                      autocommit, so no transaction commits across shards with XA; move: --rows sysbench rows
                      (1000000) unsharded on s0 (InnoDB), one packaged proxy, sysbench oltp_read_write --skip_trx=on
                      (--threads, 2) and a write probe every 10 ms, --time-before seconds (10) before a job moves the
                      table and the probe's to s1 (MyRocks), cuts over and completes: sizes before and after, copy and
                      diff rates, the probe's longest pause, every acknowledged write on s1 (see docs/benchmarks.md)
                    """);

    private ToolsMain() {
    }

    public static void main(String[] args) {
        Main.exit(args, () -> run(List.of(args), System.out, System.err));
    }

    /** Runs a command; returns the exit status, or blocks for the demo, which serves until stopped. */
    static int run(List<String> args, PrintStream out, PrintStream err) {
        if (args.isEmpty()) {
            err.print(USAGE);
            return 2;
        }
        String name = args.get(0);
        List<String> rest = args.subList(1, args.size());
        String commandUsage = COMMAND_USAGE.get(name);
        if (commandUsage != null && (rest.contains("--help") || rest.contains("-h"))) {
            out.print(commandUsage);
            return 0;
        }
        try {
            return Main.guarded(name, commandUsage != null ? commandUsage : USAGE, err, () -> switch (name) {
                case "demo" -> new DemoCommand(out, err).run(rest);
                case "bench" -> new BenchCommand(out, err).run(rest);
                case "help", "--help", "-h" -> {
                    out.print(USAGE);
                    yield 0;
                }
                default -> {
                    err.println("shardgate-tools: unknown command '" + name + "' (the proxy's commands are in its own jar)");
                    err.print(USAGE);
                    yield 2;
                }
            });
        } catch (TopologyException e) {
            err.println("shardgate " + name + ": " + e.getMessage());
            return 1;
        }
    }
}
