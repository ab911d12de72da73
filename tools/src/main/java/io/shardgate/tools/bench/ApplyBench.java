package io.shardgate.tools.bench;

import io.shardgate.replication.gtid.MariaDbGtid;
import io.shardgate.replication.gtid.MariaDbGtidPosition;
import io.shardgate.replication.stream.ChangeStream;
import io.shardgate.replication.stream.ServerEndpoint;
import io.shardgate.replication.topology.Accounts;
import io.shardgate.replication.topology.Node;
import io.shardgate.replication.topology.Topology;
import io.shardgate.replication.topology.TopologySpec;
import io.shardgate.storage.Engine;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * {@code shardgate bench apply [--transactions N] [--schemas N] [--threads N] [--warmup N] [--appliers LIST]}:
 * the same backlog of sysbench {@code oltp_write_only} transactions (default about 70k, on 4
 * schemas) applied into a fresh durable target ({@code innodb_flush_log_at_trx_commit=1},
 * {@code sync_binlog=1}) four ways in one run: the change stream with 1 and with 4 workers
 * ({@code sg1}, {@code sg4}), and a MariaDB replica with one SQL thread and with 4 parallel
 * threads, optimistic ({@code mdb1}, {@code mdb4}); {@code --appliers} picks some of them, for
 * profiling. Each is timed from start until the target has applied the source's last GTID;
 * afterwards every table is compared with the source.
 *
 * <p>Before the timed Shardgate runs, the JVM applies the backlog's first {@code --warmup}
 * transactions (default 30k; 0 turns it off), half with 1 worker and half with 4, into a scratch
 * target, untimed. A stream runs for hours, so the measure is the warmed-up applier: cold, the JIT
 * compiler spent about 5 s of CPU during the 4-worker run, which on 2 busy cores is time taken from
 * the target server (measured per thread, see docs/benchmarks.md).
 *
 * <p>All servers run in one topology, so their server ids differ; the durability options apply
 * to every node, and the source, which only produces the backlog, relaxes them at runtime.
 */
public final class ApplyBench {
    private static final String SOURCE = "src";
    private static final String WARM_UP = "warm";
    /** The binlog library logs every connection at INFO; held here so the level sticks. */
    private static final Logger BINLOG_LOG = Logger.getLogger("com.github.shyiko.mysql.binlog");

    /** One way of applying the backlog, with its own fresh target shard. */
    private enum Applier {
        STREAM_1("Shardgate, 1 worker", "sg1"),
        STREAM_4("Shardgate, 4 workers", "sg4"),
        REPLICA_1("MariaDB replica, 1 SQL thread", "mdb1"),
        REPLICA_4("MariaDB replica, 4 threads (optimistic)", "mdb4");

        final String label;
        final String shard;

        Applier(String label, String shard) {
            this.label = label;
            this.shard = shard;
        }

        static Applier named(String name) {
            for (Applier applier : values()) {
                if (applier.shard.equals(name)) {
                    return applier;
                }
            }
            throw new IllegalArgumentException("unknown applier '" + name + "' (sg1, sg4, mdb1, mdb4)");
        }
    }

    public int run(List<String> args, PrintStream out, PrintStream err) throws IOException, InterruptedException {
        int transactions = 70_000;
        int schemas = 4;
        int threads = 4;
        int warmup = 30_000;
        EnumSet<Applier> chosen = EnumSet.allOf(Applier.class);
        try {
            for (int i = 0; i < args.size(); i++) {
                switch (args.get(i)) {
                    case "--transactions" -> transactions = number(args, ++i);
                    case "--schemas" -> schemas = number(args, ++i);
                    case "--threads" -> threads = number(args, ++i);
                    case "--warmup" -> warmup = number(args, ++i);
                    case "--appliers" -> {
                        chosen.clear();
                        for (String name : value(args, ++i).split(",")) {
                            chosen.add(Applier.named(name));
                        }
                    }
                    default -> throw new IllegalArgumentException("unknown argument '" + args.get(i) + "'");
                }
            }
            if (transactions < schemas || schemas < 1 || threads < 1) {
                throw new IllegalArgumentException("--transactions, --schemas and --threads must be positive");
            }
            if (warmup < 0) {
                throw new IllegalArgumentException("--warmup must not be negative");
            }
        } catch (IllegalArgumentException e) {
            err.println("shardgate bench apply: " + e.getMessage()
                    + " (expected: [--transactions N] [--schemas N] [--threads N] [--warmup N] [--appliers sg1,sg4,mdb1,mdb4])");
            return 2;
        }

        BINLOG_LOG.setLevel(Level.WARNING);
        TopologySpec.Builder spec = TopologySpec.builder().shard(SOURCE, Engine.INNODB, 0);
        for (Applier applier : Applier.values()) {
            spec.shard(applier.shard, Engine.INNODB, 0);
        }
        boolean warmUp = warmup > 0 && (chosen.contains(Applier.STREAM_1) || chosen.contains(Applier.STREAM_4));
        if (warmUp) {
            spec.shard(WARM_UP, Engine.INNODB, 0);
        }
        spec.serverOption("innodb_flush_log_at_trx_commit", "1")
                .serverOption("sync_binlog", "1")
                .serverOption("binlog_row_metadata", "FULL");
        try (Topology topology = Topology.start(spec.build())) {
            Node source = topology.shard(SOURCE).primary();
            // Only the targets are measured; the source just has to produce the backlog.
            source.execute("SET GLOBAL innodb_flush_log_at_trx_commit = 2", "SET GLOBAL sync_binlog = 0");
            Accounts accounts = topology.accounts();
            List<Sysbench> loads = new ArrayList<>();
            for (int s = 0; s < schemas; s++) {
                source.execute("CREATE DATABASE sb" + s);
                loads.add(new Sysbench(source.port(), accounts, "sb" + s));
            }
            long started = System.nanoTime();
            runAll(loads, List.of("--threads=1"), "prepare");
            int perSchema = transactions / schemas;
            runAll(loads, List.of("--threads=" + threads, "--events=" + perSchema, "--time=0"), "run");
            MariaDbGtidPosition end = MariaDbGtidPosition.parse(source.gtidBinlogPos());
            long backlog = end.byDomain().values().stream().mapToLong(MariaDbGtid::sequence).sum();
            out.printf(Locale.ROOT, "backlog: %d source transactions (sysbench oltp_write_only, %d schemas x %d events,"
                            + " %d threads each, 1 table x 10k rows), written in %.1f s; source at %s%n",
                    backlog, schemas, perSchema, threads, (System.nanoTime() - started) / 1e9, end);
            out.printf(Locale.ROOT, "targets: MariaDB %s, innodb_flush_log_at_trx_commit=1, sync_binlog=1, log_bin on%n%n",
                    source.queryString("SELECT VERSION()"));
            out.flush();

            ServerEndpoint sourceEndpoint = new ServerEndpoint(source.host(), source.port(), accounts.user(),
                    accounts.password());
            if (warmUp) {
                warmUp(sourceEndpoint, topology.shard(WARM_UP).primary(), accounts, end, warmup, out, err);
            }
            double[] seconds = new double[Applier.values().length];
            List<String> failures = new ArrayList<>();
            for (Applier applier : chosen) {
                Node target = topology.shard(applier.shard).primary();
                err.println("bench apply: " + applier.label + " ...");
                seconds[applier.ordinal()] = switch (applier) {
                    case STREAM_1 -> stream(sourceEndpoint, target, accounts, 1, end);
                    case STREAM_4 -> stream(sourceEndpoint, target, accounts, 4, end);
                    case REPLICA_1 -> replica(source, target, accounts, 0, end);
                    case REPLICA_4 -> replica(source, target, accounts, 4, end);
                };
                err.printf(Locale.ROOT, "bench apply: %s: %.1f s, %s commits on the target%n", applier.label,
                        seconds[applier.ordinal()], target.queryString(
                                "SELECT VARIABLE_VALUE FROM information_schema.GLOBAL_STATUS WHERE VARIABLE_NAME = 'BINLOG_COMMITS'"));
                for (int s = 0; s < schemas; s++) {
                    String table = "sb" + s + ".sbtest1";
                    String want = checksum(source, table);
                    String have = checksum(target, table);
                    if (!want.equals(have)) {
                        failures.add(applier.label + ": CHECKSUM TABLE " + table + " is " + have + ", source " + want);
                    }
                }
            }

            double reference = seconds[Applier.REPLICA_4.ordinal()];
            out.println("| applier | seconds | tx/s | time vs MariaDB replica, 4 threads |");
            out.println("|---|---|---|---|");
            for (Applier applier : chosen) {
                double s = seconds[applier.ordinal()];
                out.printf(Locale.ROOT, "| %s | %.1f | %.0f | %s |%n", applier.label, s, backlog / s,
                        reference > 0 ? String.format(Locale.ROOT, "%.2fx", s / reference) : "-");
            }
            out.println();
            if (chosen.contains(Applier.STREAM_1) && chosen.contains(Applier.STREAM_4)) {
                double speedup = seconds[Applier.STREAM_1.ordinal()] / seconds[Applier.STREAM_4.ordinal()];
                out.printf(Locale.ROOT, "Shardgate 4 workers vs 1 worker: %.2fx faster (target >= 1.6x): %s%n",
                        speedup, speedup >= 1.6 ? "met" : "MISSED");
            }
            if (chosen.contains(Applier.STREAM_4) && reference > 0) {
                double versusReplica = seconds[Applier.STREAM_4.ordinal()] / reference;
                out.printf(Locale.ROOT, "Shardgate 4 workers takes %.2fx the time of the MariaDB replica with 4 threads"
                        + " (target <= 1.5x): %s%n", versusReplica, versusReplica <= 1.5 ? "met" : "MISSED");
            }
            out.println(failures.isEmpty() ? "every target's tables match the source (CHECKSUM TABLE)" : "");
            out.flush();
            failures.forEach(f -> err.println("mismatch: " + f));
            return failures.isEmpty() ? 0 : 1;
        }
    }

    private static String value(List<String> args, int index) {
        if (index >= args.size()) {
            throw new IllegalArgumentException(args.get(index - 1) + " needs a value");
        }
        return args.get(index);
    }

    private static int number(List<String> args, int index) {
        String option = args.get(index - 1);
        try {
            return Integer.parseInt(value(args, index));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + " needs a number, not '" + args.get(index) + "'");
        }
    }

    /**
     * Applies the backlog's first {@code count} transactions into a scratch target, half with 1
     * worker and the rest with 4 (the second stream continues from the position the first stored),
     * so that the JIT has compiled both shapes before anything is timed.
     */
    private static void warmUp(ServerEndpoint source, Node target, Accounts accounts, MariaDbGtidPosition end,
                               int count, PrintStream out, PrintStream err) throws InterruptedException {
        err.println("bench apply: warm-up ...");
        long started = System.nanoTime();
        MariaDbGtidPosition half = prefix(end, count / 2);
        MariaDbGtidPosition all = prefix(end, count);
        if (count >= 2) {
            stream(source, target, accounts, 1, half);
        }
        stream(source, target, accounts, 4, all);
        out.printf(Locale.ROOT, "warm-up (not timed): the first %s transactions, up to %s with 1 worker and up to %s"
                + " with 4, into a scratch target, in %.1f s%n%n", count, half, all, (System.nanoTime() - started) / 1e9);
        out.flush();
    }

    /** {@code end} cut to at most {@code count} transactions in each domain. */
    static MariaDbGtidPosition prefix(MariaDbGtidPosition end, long count) {
        MariaDbGtidPosition cut = MariaDbGtidPosition.empty();
        for (MariaDbGtid gtid : end.byDomain().values()) {
            cut = cut.with(new MariaDbGtid(gtid.domain(), gtid.server(), Math.min(gtid.sequence(), count)));
        }
        return cut;
    }

    private static double stream(ServerEndpoint source, Node target, Accounts accounts, int workers,
                                 MariaDbGtidPosition end) throws InterruptedException {
        ChangeStream stream = ChangeStream.builder()
                .source(source)
                .target(new ServerEndpoint(target.host(), target.port(), accounts.user(), accounts.password()))
                .workers(workers)
                .untilGtid(end)
                .build();
        long started = System.nanoTime();
        ChangeStream.Result result = stream.run();
        double seconds = (System.nanoTime() - started) / 1e9;
        if (!result.applied().hasReached(end)) {
            throw new IllegalStateException("the stream stopped at " + result.applied() + ", before " + end);
        }
        return seconds;
    }

    private static double replica(Node source, Node target, Accounts accounts, int parallelThreads,
                                  MariaDbGtidPosition end) {
        target.execute("SET GLOBAL slave_parallel_threads = " + parallelThreads,
                "SET GLOBAL slave_parallel_mode = '" + (parallelThreads > 0 ? "optimistic" : "conservative") + "'",
                "CHANGE MASTER TO MASTER_HOST='" + source.host() + "', MASTER_PORT=" + source.port()
                        + ", MASTER_USER='" + accounts.replUser() + "', MASTER_PASSWORD='" + accounts.replPassword()
                        + "', MASTER_USE_GTID=slave_pos, MASTER_CONNECT_RETRY=1");
        long started = System.nanoTime();
        target.execute("START SLAVE");
        String waited = target.queryString("SELECT MASTER_GTID_WAIT('" + end + "', 900)");
        double seconds = (System.nanoTime() - started) / 1e9;
        if (!"0".equals(waited)) {
            Map<String, String> status = target.replicaStatus();
            throw new IllegalStateException(target.name() + " did not reach " + end + ": IO "
                    + status.get("Slave_IO_Running") + " (" + status.get("Last_IO_Error") + "), SQL "
                    + status.get("Slave_SQL_Running") + " (" + status.get("Last_SQL_Error") + ")");
        }
        target.execute("STOP SLAVE");
        return seconds;
    }

    private static String checksum(Node node, String table) {
        try (var connection = node.connect(); var statement = connection.createStatement();
             var rows = statement.executeQuery("CHECKSUM TABLE " + table)) {
            return rows.next() ? rows.getString(2) : "none";
        } catch (java.sql.SQLException e) {
            return "error: " + e.getMessage();
        }
    }

    private static void runAll(List<Sysbench> loads, List<String> options, String command)
            throws IOException, InterruptedException {
        List<Process> processes = new ArrayList<>();
        for (Sysbench load : loads) {
            processes.add(load.start(options, command));
        }
        for (int i = 0; i < processes.size(); i++) {
            Process process = processes.get(i);
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (process.waitFor() != 0) {
                throw new IOException("sysbench oltp_write_only " + command + " on " + loads.get(i).schema()
                        + " failed:\n" + output);
            }
        }
    }

    /** sysbench {@code oltp_write_only} on one schema of the source. */
    private record Sysbench(int port, Accounts accounts, String schema) {
        Process start(List<String> options, String command) throws IOException {
            List<String> cmd = new ArrayList<>(List.of("sysbench", "oltp_write_only", "--db-driver=mysql",
                    "--mysql-host=127.0.0.1", "--mysql-port=" + port, "--mysql-user=" + accounts.user(),
                    "--mysql-password=" + accounts.password(), "--mysql-db=" + schema, "--tables=1",
                    "--table-size=10000", "--report-interval=0"));
            cmd.addAll(options);
            cmd.add(command);
            return new ProcessBuilder(cmd).redirectErrorStream(true).start();
        }
    }
}
