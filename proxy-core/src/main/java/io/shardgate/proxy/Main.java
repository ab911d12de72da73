package io.shardgate.proxy;

import io.shardgate.proxy.bench.BenchCommand;
import io.shardgate.proxy.config.ConfigException;
import io.shardgate.proxy.demo.DemoCommand;
import io.shardgate.replication.stream.cli.StreamCommand;
import io.shardgate.replication.topology.TopologyException;

import java.io.PrintStream;
import java.util.Arrays;
import java.util.List;

/** Entry point of the runnable jar; {@code ./shardgate} calls it. */
public final class Main {
    static final String USAGE = """
            usage: shardgate <command> [options]

            commands:
              run --config FILE   run the proxy with a YAML config (see docs/configuration.md)
              demo                start a local two-shard topology (s0 InnoDB, s1 MyRocks) and the proxy
              stream ...          follow a source's binlog and apply it to a target (see docs/change-stream.md)
              test                (launcher only) install prerequisites and run every test
              bench [sysbench] [--time S]  sysbench direct vs through Shardgate (docs/benchmarks.md)
              bench split [--time S]       sysbench oltp_read_only --skip_trx=on: primary vs 2 replicas via Shardgate
              bench apply [--transactions N]  change-stream apply vs a MariaDB replica (docs/benchmarks.md)
              checksum --config FILE schema.table  row count and checksum of a table on every shard (docs/engines.md)
            """;

    private Main() {
    }

    public static void main(String[] args) {
        int status = run(List.of(args), System.out, System.err);
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
            err.print(USAGE);
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

    /** Bad command-line arguments. */
    static final class UsageException extends RuntimeException {
        UsageException(String message) {
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
