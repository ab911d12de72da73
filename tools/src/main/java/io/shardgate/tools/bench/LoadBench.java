package io.shardgate.tools.bench;

import io.shardgate.proxy.ShardgateProxy;
import io.shardgate.proxy.config.ConfigLoader;
import io.shardgate.replication.topology.Node;
import io.shardgate.replication.topology.Topology;
import io.shardgate.replication.topology.TopologySpec;
import io.shardgate.storage.Engine;

import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * {@code shardgate bench load [--rows-per-insert N] [--statements N] [--rounds N]}: bulk loading as a client does
 * it, multi-row INSERTs (200 of 1,000 rows by default) over one connection with autocommit, timed from the first
 * send to the last OK, into one MariaDB directly, through HAProxy, through Shardgate over that one server, and
 * through Shardgate over two shards (hash on id, -80 / 80-). The targets alternate within each round; the table
 * prints the median of the rounds. After every load the table's rows are counted and checksummed on the servers:
 * a target that lost, duplicated or changed a row fails the bench.
 */
final class LoadBench {
    static final String SCHEMA = "loaddb";
    static final String CREATE_TABLE = "CREATE TABLE " + SCHEMA + ".load1 (id BIGINT PRIMARY KEY, k INT NOT NULL,"
            + " c CHAR(120) NOT NULL, pad CHAR(60) NOT NULL) ENGINE=InnoDB";
    private static final String CONTENT = "SELECT COUNT(*), COALESCE(SUM(CRC32(CONCAT_WS('|', id, k, c, pad))), 0) FROM "
            + SCHEMA + ".load1";
    private static final int WARM_UP_STATEMENTS = 20;

    private final PrintStream out;
    private final PrintStream err;

    LoadBench(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    /** The command line: {@code [--rows-per-insert N] [--statements N] [--rounds N]}. */
    record Options(int rowsPerInsert, int statements, int rounds) {
        static Options parse(List<String> args) {
            int rows = 1000;
            int statements = 200;
            int rounds = 3;
            for (int i = 0; i < args.size(); i++) {
                switch (args.get(i)) {
                    case "--rows-per-insert" -> rows = BenchCommand.positive("--rows-per-insert", args, ++i);
                    case "--statements" -> statements = BenchCommand.positive("--statements", args, ++i);
                    case "--rounds" -> rounds = BenchCommand.positive("--rounds", args, ++i);
                    default -> throw new IllegalArgumentException("unknown argument '" + args.get(i) + "'");
                }
            }
            return new Options(rows, statements, rounds);
        }

        long rows() {
            return (long) rowsPerInsert * statements;
        }
    }

    /** Where a load goes, the servers that hold its rows, and the process that relays it (null: none). */
    private record Target(String name, int port, List<Node> servers, CpuClock relay, boolean relayInThisJvm) {
    }

    /** One load: rows per second, and the relay's CPU per statement (NaN when there is no relay). */
    record Load(double rowsPerSecond, double relayMicrosPerStatement) {
    }

    int run(List<String> args) throws IOException, InterruptedException {
        Options options;
        try {
            options = Options.parse(args);
        } catch (IllegalArgumentException e) {
            err.println("shardgate bench load: " + e.getMessage() + " (expected: [--rows-per-insert N] [--statements N] [--rounds N])");
            return 2;
        }
        List<String> inserts = inserts(options.rowsPerInsert(), options.statements());
        try (Topology topology = Topology.start(TopologySpec.builder().shard("one", Engine.INNODB, 0)
                .shard("s0", Engine.INNODB, 0).shard("s1", Engine.INNODB, 0).build())) {
            Node one = topology.shard("one").primary();
            Node s0 = topology.shard("s0").primary();
            Node s1 = topology.shard("s1").primary();
            for (Node node : List.of(one, s0, s1)) {
                node.execute("CREATE DATABASE " + SCHEMA, CREATE_TABLE);
            }
            String head = BenchCommand.proxyYaml(topology);
            String single = BenchCommand.oneShardYaml(head, one);
            String sharded = BenchCommand.twoShardsYaml(head, s0, s1, SCHEMA, "load1");
            try (HaproxyRelay haproxy = HaproxyRelay.start(one.address());
                 ShardgateProxy oneShard = ShardgateProxy.start(new ConfigLoader().parse(single));
                 ShardgateProxy twoShards = ShardgateProxy.start(new ConfigLoader().parse(sharded))) {
                List<Target> targets = List.of(new Target("one server directly", one.port(), List.of(one), null, false),
                        new Target("HAProxy, one server", haproxy.port(), List.of(one), haproxy.cpu(), false),
                        new Target("Shardgate, 1 shard", oneShard.port(), List.of(one), CpuClock.self(), true),
                        new Target("Shardgate, 2 shards", twoShards.port(), List.of(s0, s1), CpuClock.self(), true));
                out.printf(Locale.ROOT, "bulk load: %d INSERTs of %d rows (%d rows, %.1f MB of SQL) over one connection,"
                                + " autocommit, InnoDB, MariaDB %s; median of %d rounds, targets alternated in each, after a warm-up"
                                + " of %d INSERTs per target%n",
                        options.statements(), options.rowsPerInsert(), options.rows(),
                        inserts.stream().mapToLong(String::length).sum() / 1e6, one.queryString("SELECT VERSION()"),
                        options.rounds(), Math.min(WARM_UP_STATEMENTS, options.statements()));
                out.println("relay CPU: CPU time of the HAProxy process, or of this JVM minus the loading thread"
                        + " (the proxy), per INSERT");
                out.println();
                String user = topology.accounts().user();
                String password = topology.accounts().password();
                // JIT and caches: the first load through a cold proxy is several times slower than the next ones.
                List<String> warmUp = inserts.subList(0, Math.min(WARM_UP_STATEMENTS, inserts.size()));
                for (Target target : targets) {
                    truncate(target);
                    load(target, user, password, warmUp, options);
                }
                List<List<Load>> loads = new ArrayList<>();
                targets.forEach(t -> loads.add(new ArrayList<>()));
                long[] expected = null;
                for (int round = 0; round < options.rounds(); round++) {
                    for (int t = 0; t < targets.size(); t++) {
                        Target target = targets.get(t);
                        truncate(target);
                        loads.get(t).add(load(target, user, password, inserts, options));
                        long[] content = content(target);
                        if (content[0] != options.rows()) {
                            throw new IllegalStateException(target.name() + ": " + content[0] + " rows after the load, expected "
                                    + options.rows());
                        }
                        if (expected == null) {
                            expected = content;
                        } else if (content[1] != expected[1]) {
                            throw new IllegalStateException(target.name() + ": the loaded rows' checksum " + content[1]
                                    + " differs from the direct load's " + expected[1]);
                        }
                    }
                }
                printTable(targets, loads);
                return 0;
            }
        }
    }

    private static void truncate(Target target) {
        for (Node server : target.servers()) {
            server.execute("TRUNCATE TABLE " + SCHEMA + ".load1");
        }
    }

    private void printTable(List<Target> targets, List<List<Load>> loads) {
        double direct = median(loads.get(0).stream().map(Load::rowsPerSecond).toList());
        out.println("| target | rows/s (median) | each round rows/s | / direct | relay CPU us/INSERT (median) |");
        out.println("|---|---|---|---|---|");
        for (int t = 0; t < targets.size(); t++) {
            List<Load> runs = loads.get(t);
            double rate = median(runs.stream().map(Load::rowsPerSecond).toList());
            double cpu = median(runs.stream().map(Load::relayMicrosPerStatement).toList());
            out.printf(Locale.ROOT, "| %s | %.0f | %s | %.2fx | %s |%n", targets.get(t).name(), rate,
                    String.join(" / ", runs.stream().map(l -> String.format(Locale.ROOT, "%.0f", l.rowsPerSecond())).toList()),
                    rate / direct, Double.isNaN(cpu) ? "-" : String.format(Locale.ROOT, "%.0f", cpu));
        }
        out.flush();
    }

    /** Sends the INSERTs over one new connection; each must report all its rows inserted. */
    private static Load load(Target target, String user, String password, List<String> inserts, Options options)
            throws IOException {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        String url = "jdbc:mariadb://127.0.0.1:" + target.port() + "/" + SCHEMA + "?socketTimeout=600000";
        try (Connection connection = DriverManager.getConnection(url, user, password);
             Statement statement = connection.createStatement()) {
            long relayBefore = target.relay() == null ? 0 : target.relay().cpuNanos();
            long loaderBefore = threads.getCurrentThreadCpuTime();
            long started = System.nanoTime();
            for (String insert : inserts) {
                int inserted = statement.executeUpdate(insert);
                if (inserted != options.rowsPerInsert()) {
                    throw new IllegalStateException(target.name() + ": an INSERT of " + options.rowsPerInsert()
                            + " rows reported " + inserted);
                }
            }
            long elapsed = System.nanoTime() - started;
            double cpu = Double.NaN;
            if (target.relay() != null) {
                long used = target.relay().cpuNanos() - relayBefore;
                // This JVM's clock also counts the loading thread; HAProxy's does not.
                if (target.relayInThisJvm()) {
                    used -= threads.getCurrentThreadCpuTime() - loaderBefore;
                }
                cpu = used / 1000.0 / inserts.size();
            }
            return new Load(options.rows() / (elapsed / 1e9), cpu);
        } catch (SQLException e) {
            throw new IllegalStateException(target.name() + ": the load failed: " + e.getMessage(), e);
        }
    }

    /** Row count and content checksum of the table, summed over the target's servers. */
    private static long[] content(Target target) {
        long[] sum = new long[2];
        for (Node server : target.servers()) {
            try (Connection connection = server.connect(); Statement statement = connection.createStatement();
                 ResultSet rows = statement.executeQuery(CONTENT)) {
                rows.next();
                long count = rows.getLong(1);
                if (count == 0 && target.servers().size() > 1) {
                    throw new IllegalStateException(target.name() + ": " + server + " received no rows");
                }
                sum[0] += count;
                sum[1] += rows.getLong(2);
            } catch (SQLException e) {
                throw new IllegalStateException(server + ": " + e.getMessage(), e);
            }
        }
        return sum;
    }

    static double median(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    /**
     * The INSERT statements: ids 1..rows in order, k and the strings varied by a seeded random, and one row in ten
     * with quotes, a doubled quote, backslash escapes and a tab in {@code c}, as real text has.
     */
    static List<String> inserts(int rowsPerInsert, int statements) {
        SplittableRandom random = new SplittableRandom(18);
        List<String> inserts = new ArrayList<>(statements);
        long id = 1;
        for (int s = 0; s < statements; s++) {
            StringBuilder sql = new StringBuilder(rowsPerInsert * 200).append("INSERT INTO load1 (id, k, c, pad) VALUES ");
            for (int r = 0; r < rowsPerInsert; r++, id++) {
                String c = digits(random, 11, 10);
                if (id % 10 == 0) {
                    c = "it\\'s O''Brien\\'s \\\\share\\\\ \\\"quoted\\\"\\t" + c.substring(0, 80);
                }
                sql.append(r == 0 ? "" : ",").append('(').append(id).append(',').append(random.nextInt(1, 1_000_000))
                        .append(",'").append(c).append("','").append(digits(random, 5, 11)).append("')");
            }
            inserts.add(sql.toString());
        }
        return inserts;
    }

    /** Groups of random digits joined by '-', like sysbench's c and pad columns. */
    private static String digits(SplittableRandom random, int groups, int length) {
        StringBuilder text = new StringBuilder(groups * (length + 1));
        for (int g = 0; g < groups; g++) {
            if (g > 0) {
                text.append('-');
            }
            for (int i = 0; i < length; i++) {
                text.append((char) ('0' + random.nextInt(10)));
            }
        }
        return text.toString();
    }
}
