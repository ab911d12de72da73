package io.shardgate.proxy;

import io.netty.util.ResourceLeakDetector;
import io.shardgate.proxy.admin.AdminCommand;
import io.shardgate.proxy.admin.JobCommand;
import io.shardgate.proxy.config.ConfigException;
import io.shardgate.replication.stream.cli.StreamCommand;

import java.io.IOException;
import java.io.PrintStream;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.IntSupplier;

/** Entry point of the runnable jar; {@code ./shardgate} calls it. */
public final class Main {
    /** Where {@code demo} and {@code bench} live: they start MariaDB servers, so they are not in this jar. */
    static final String TOOLS_JAR = "tools/target/shardgate-tools.jar";

    static final String USAGE = """
            usage: shardgate <command> [options]

            commands:
              run --config FILE   run the proxy with a YAML config (see docs/configuration.md)
              stream --source H:P --target H:P --user U --password P ...
                                  follow a source's binlog and apply it to a target (see docs/change-stream.md)
              checksum --config FILE schema.table  row count and checksum of a table on every shard (docs/engines.md)
              admin [--url URL] [--token TOKEN] COMMAND ...
                                  change the topology live through a proxy's admin API (see docs/operations.md)
              job [--url URL] [--token TOKEN] start|list|show|watch|cutover|cancel|reverse ...
                                  reshard a shard or move tables, and follow the job (see docs/operations.md, "Jobs")
              test                (launcher only) install prerequisites and run every test

            demo and bench start local MariaDB servers: they run from the tools jar (%s),
            as ./shardgate demo and ./shardgate bench do.
            shardgate <command> --help prints that command's usage.
            """.formatted(TOOLS_JAR);

    /** Each command's {@code --help} text (stdout, exit 0); also printed on stderr after a bad argument. */
    static final Map<String, String> COMMAND_USAGE = Map.of(
            "run", """
                    usage: shardgate run --config FILE
                      run the proxy in the foreground with a YAML config (see docs/configuration.md) until SIGTERM
                      or Ctrl-C; prints "Shardgate listening on HOST:PORT (transport), admin on HOST:PORT" once it serves
                    """,
            "stream", StreamCommand.USAGE + """

                      follow a source's binlog and apply it to a target (see docs/change-stream.md)
                    """,
            "checksum", """
                    usage: shardgate checksum --config FILE schema.table
                      row count and checksum of a table on every shard's primary (see docs/engines.md)
                    """,
            "admin", AdminCommand.USAGE,
            "job", JobCommand.USAGE);

    /** A command's body, run by {@link #guarded}: returns the exit status. */
    @FunctionalInterface
    public interface Command {
        int run() throws IOException, InterruptedException;
    }

    private Main() {
    }

    public static void main(String[] args) {
        exit(args, () -> run(List.of(args), System.out, System.err));
    }

    /** Runs {@code main} and ends the process with its status (1 for what it throws), unless it returned 0. */
    public static void exit(String[] args, IntSupplier main) {
        // Netty tracks one buffer allocation in 128 for leaks, with a stack trace at the allocation and
        // at each use: a cost the event loops pay per statement. Off in the process, unless the
        // operator asks for it (-Dio.netty.leakDetection.level=simple|advanced|paranoid).
        if (System.getProperty("io.netty.leakDetection.level") == null) {
            ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.DISABLED);
        }
        int status;
        try {
            status = main.getAsInt();
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
        String name = args.get(0);
        return guarded(name, commandUsage != null ? commandUsage : USAGE, err, () -> switch (name) {
            case "run" -> new RunCommand(out, err).run(rest);
            case "stream" -> new StreamCommand().run(rest, out, err);
            case "checksum" -> ChecksumCli.run(rest, out, err);
            case "admin" -> new AdminCommand(System.getenv(), System.getProperty("user.name"), out, err).run(rest);
            case "job" -> new JobCommand(System.getenv(), System.getProperty("user.name"), out, err, System.console() != null)
                    .run(rest);
            case "help", "--help", "-h" -> {
                out.print(USAGE);
                yield 0;
            }
            case "demo", "bench" -> {
                err.println("shardgate " + name + ": not in this jar; ./shardgate " + name + " runs it from the tools jar ("
                        + TOOLS_JAR + ")");
                yield 2;
            }
            default -> {
                err.println("shardgate: unknown command '" + name + "'");
                err.print(USAGE);
                yield 2;
            }
        });
    }

    /**
     * Runs {@code command}, turning what a command fails with into an exit status: bad arguments 2 (the message and
     * {@code usage} on stderr), a bad config or an I/O failure 1 (the message on stderr), an interrupt 130.
     */
    public static int guarded(String name, String usage, PrintStream err, Command command) {
        try {
            return command.run();
        } catch (UsageException e) {
            err.println("shardgate " + name + ": " + e.getMessage());
            err.print(usage);
            return 2;
        } catch (ConfigException | IOException e) {
            err.println("shardgate " + name + ": " + e.getMessage());
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
