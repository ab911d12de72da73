package io.shardgate.proxy;

import io.shardgate.proxy.bench.BenchCommand;
import io.shardgate.proxy.config.ConfigException;
import io.shardgate.proxy.demo.DemoCommand;
import io.shardgate.replication.stream.cli.StreamCommand;
import io.shardgate.replication.topology.TopologyException;

import java.io.PrintStream;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/** Entry point of the runnable jar; {@code ./shardgate} calls it. */
public final class Main {
    static final String USAGE = """
            usage: shardgate <command> [options]

            commands:
              run --config FILE   run the proxy with a YAML config (see docs/configuration.md)
              demo                start a local two-shard topology (s0 InnoDB, s1 MyRocks) and the proxy
              stream --source H:P --target H:P --user U --password P ...
                                  follow a source's binlog and apply it to a target (see docs/change-stream.md)
              test                (launcher only) install prerequisites and run every test
              bench [sysbench] [--time S]  sysbench direct vs through Shardgate (docs/benchmarks.md)
              bench split [--time S]       sysbench oltp_read_only --skip_trx=on: primary vs 2 replicas via Shardgate
              bench shards [--time S]      sysbench oltp_point_select: one server vs Shardgate over 1 and 2 shards
              bench apply [--transactions N]  change-stream apply vs a MariaDB replica (docs/benchmarks.md)
              checksum --config FILE schema.table  row count and checksum of a table on every shard (docs/engines.md)

            shardgate <command> --help prints that command's usage.
            """;

    /** Each command's {@code --help} text (stdout, exit 0); also printed on stderr after a bad argument. */
    static final Map<String, String> COMMAND_USAGE = Map.of(
            "run", """
                    usage: shardgate run --config FILE
                      run the proxy in the foreground with a YAML config (see docs/configuration.md) until SIGTERM
                      or Ctrl-C; prints "Shardgate listening on HOST:PORT (transport), admin on HOST:PORT" once it serves
                    """,
            "demo", """
                    usage: shardgate demo [--port P] [--admin-port P]
                      start two local shards (s0 InnoDB, s1 MyRocks; a primary and a replica each) and the proxy
                      on 127.0.0.1:3307 (admin 8307); port 0 picks a free port; Ctrl-C stops everything it started
                    """,
            "stream", StreamCommand.USAGE + """

                      follow a source's binlog and apply it to a target (see docs/change-stream.md)
                    """,
            "bench", """
                    usage: shardgate bench [sysbench] [--time S]
                           shardgate bench split [--time S]
                           shardgate bench shards [--time S]
                           shardgate bench apply [--transactions N] [--schemas N] [--threads N] [--warmup N]
                                                 [--appliers sg1,sg4,mdb1,mdb4]
                      sysbench direct vs through Shardgate; split: the primary vs Shardgate over 2 replicas;
                      shards: one server vs Shardgate over 1 and 2 shards; apply: the change stream vs a MariaDB
                      replica (see docs/benchmarks.md)
                    """,
            "checksum", """
                    usage: shardgate checksum --config FILE schema.table
                      row count and checksum of a table on every shard's primary (see docs/engines.md)
                    """);

    private Main() {
    }

    public static void main(String[] args) {
        int status;
        try {
            status = run(List.of(args), System.out, System.err);
        } catch (RuntimeException | Error e) {
            // Whatever a command failed with, the process ends: a half-started proxy's threads must not keep it alive.
            System.err.println("shardgate " + (args.length > 0 ? args[0] : "") + ": " + e);
            e.printStackTrace();
            status = 1;
        }
        if (status != 0) {
            System.exit(status);
        }
    }

    /** Runs a command; returns the exit status, or blocks for commands that serve until stopped. */
    static int run(List<String> args, PrintStream out, PrintStream err) {
        if (args.isEmpty()) {
            err.print(USAGE);
            return 2;
        }
        List<String> rest = args.subList(1, args.size());
        String commandUsage = COMMAND_USAGE.get(args.get(0));
        if (commandUsage != null && (rest.contains("--help") || rest.contains("-h"))) {
            out.print(commandUsage);
            return 0;
        }
        try {
            return switch (args.get(0)) {
                case "run" -> new RunCommand(out, err).run(rest);
                case "demo" -> new DemoCommand(out, err).run(rest);
                case "stream" -> new StreamCommand().run(rest, out, err);
                case "bench" -> new BenchCommand(out, err).run(rest);
                case "checksum" -> ChecksumCli.run(rest, out, err);
                case "help", "--help", "-h" -> {
                    out.print(USAGE);
                    yield 0;
                }
                default -> {
                    err.println("shardgate: unknown command '" + args.get(0) + "'");
                    err.print(USAGE);
                    yield 2;
                }
            };
        } catch (UsageException e) {
            err.println("shardgate " + args.get(0) + ": " + e.getMessage());
            err.print(commandUsage != null ? commandUsage : USAGE);
            return 2;
        } catch (ConfigException | TopologyException e) {
            err.println("shardgate " + args.get(0) + ": " + e.getMessage());
            return 1;
        } catch (java.io.IOException e) {
            err.println("shardgate " + args.get(0) + ": " + e.getMessage());
            return 1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 130;
        }
    }

    /** Bad command-line arguments: exit status 2, the command's usage on stderr. */
    public static final class UsageException extends RuntimeException {
        public UsageException(String message) {
            super(message);
        }
    }

    /** The value after {@code flag} in {@code args}, or null. */
    static String option(List<String> args, String flag) {
        int index = args.indexOf(flag);
        if (index < 0) {
            return null;
        }
        if (index + 1 >= args.size()) {
            throw new UsageException(flag + " needs a value");
        }
        return args.get(index + 1);
    }

    static void rejectUnknown(List<String> args, String... flagsWithValues) {
        List<String> known = Arrays.asList(flagsWithValues);
        for (int i = 0; i < args.size(); i++) {
            if (!known.contains(args.get(i))) {
                throw new UsageException("unknown option '" + args.get(i) + "'");
            }
            i++;
        }
    }
}
