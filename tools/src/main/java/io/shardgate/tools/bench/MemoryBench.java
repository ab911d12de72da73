package io.shardgate.tools.bench;

import io.shardgate.replication.topology.Node;
import io.shardgate.replication.topology.Shard;
import io.shardgate.replication.topology.Topology;
import io.shardgate.replication.topology.TopologySpec;
import io.shardgate.storage.Engine;
import io.shardgate.tools.ToolsMain;
import io.shardgate.tools.bench.HeapProbe.Heap;
import io.shardgate.tools.bench.MemoryQueries.Outcome;
import io.shardgate.tools.bench.MemoryQueries.Query;

import java.io.IOException;
import java.io.PrintStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * {@code shardgate bench memory [--rows N] [--limit N] [--repeat N]}: the proxy's heap while queries that read more
 * rows than {@code limits.max_buffered_rows} run across two shards (InnoDB and MyRocks). The packaged proxy runs in a
 * child JVM with a fixed heap ({@link #JVM_OPTIONS}), so its heap is its own: before and after each query's runs a full
 * collection ({@code jcmd GC.run}) and the heap left in use, and during them the peak that {@code jstat} printed every
 * 50 ms. Each query ({@link MemoryQueries#QUERIES}) must get the documented ERR 1038 or, when its merge streams, the
 * right answer; then a plain query must still answer. A second proxy with the limit above the rows shows the contrast:
 * the same queries answering, and the heap that took. Exit 1 when an outcome was wrong or the proxy died.
 */
final class MemoryBench {
    static final List<String> JVM_OPTIONS = List.of("-Xmx512m");
    private static final int ROWS_PER_INSERT = 1000;

    private final PrintStream out;
    private final PrintStream err;

    MemoryBench(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    /** The command line; {@code proxyJar} null means the one next to the tools jar. */
    record Options(long rows, long limit, int repeat, Path proxyJar) {
        static Options parse(List<String> args) {
            Long rows = null;
            long limit = 100_000;
            int repeat = 10;
            Path jar = null;
            for (int i = 0; i < args.size(); i++) {
                switch (args.get(i)) {
                    case "--rows" -> rows = (long) BenchCommand.positive("--rows", args, ++i);
                    case "--limit" -> limit = BenchCommand.positive("--limit", args, ++i);
                    case "--repeat" -> repeat = BenchCommand.positive("--repeat", args, ++i);
                    case "--proxy-jar" -> {
                        if (++i >= args.size()) {
                            throw new IllegalArgumentException("--proxy-jar needs a path");
                        }
                        jar = Path.of(args.get(i));
                    }
                    default -> throw new IllegalArgumentException("unknown argument '" + args.get(i) + "'");
                }
            }
            return new Options(rows == null ? 3 * limit : rows, limit, repeat, jar);
        }
    }

    /** One query's runs through one proxy: every distinct outcome, the first wrong one's reason, time and heap. */
    record Result(Query query, Set<String> outcomes, String wrong, double medianMillis, Heap before, Heap peak, Heap after) {
    }

    int run(List<String> args) throws IOException, InterruptedException {
        Options options;
        try {
            options = Options.parse(args);
        } catch (IllegalArgumentException e) {
            err.println("shardgate bench memory: " + e.getMessage() + " (expected: [--rows N] [--limit N] [--repeat N])");
            return 2;
        }
        Path jar = options.proxyJar() != null ? options.proxyJar() : besideToolsJar();
        Path logs = Files.createTempDirectory("shardgate-bench-memory");
        try (Topology topology = Topology.start(TopologySpec.builder().shard("s0", Engine.INNODB, 0)
                .shard("s1", Engine.ROCKSDB, 0).build())) {
            for (Shard shard : topology.shards()) {
                shard.primary().execute(MemoryQueries.createTables(shard.engine().serverName()).toArray(String[]::new));
            }
            Node s0 = topology.shard("s0").primary();
            out.printf(Locale.ROOT, "bench memory: %d rows in %s.t and in %s.t2 over s0 (InnoDB) and s1 (MyRocks), MariaDB %s;"
                            + " limits.max_buffered_rows %d; each query %d times over one connection; proxy JVM %s; logs in %s%n",
                    options.rows(), MemoryQueries.SCHEMA, MemoryQueries.SCHEMA, s0.queryString("SELECT VERSION()"), options.limit(),
                    options.repeat(), String.join(" ", JVM_OPTIONS), logs);
            boolean ok;
            try (ProxyProcess proxy = ProxyProcess.start(jar, JVM_OPTIONS, yaml(topology, options.limit()), logs, "limit-" + options.limit())) {
                load(topology, proxy, options.rows());
                ok = measure(topology, proxy, options.limit(), options);
            }
            long above = Math.min(1_000_000_000L, 2 * options.rows());
            try (ProxyProcess proxy = ProxyProcess.start(jar, JVM_OPTIONS, yaml(topology, above), logs, "limit-" + above)) {
                out.println();
                out.printf(Locale.ROOT, "contrast: the same data, limits.max_buffered_rows %d (above the rows)%n", above);
                ok &= measure(topology, proxy, above, options);
            }
            return ok ? 0 : 1;
        }
    }

    /** Runs every query through {@code proxy} and prints its table; false when an outcome was wrong or the proxy died. */
    private boolean measure(Topology topology, ProxyProcess proxy, long limit, Options options) throws IOException, InterruptedException {
        HeapProbe probe = new HeapProbe(proxy.pid());
        out.println("proxy heap: " + probe.heapInfo());
        String user = topology.accounts().user();
        String password = topology.accounts().password();
        List<Result> results = new ArrayList<>();
        long maxLen;
        try (HeapProbe.Sampler sampler = probe.sample();
             Connection connection = connect(proxy, user, password);
             Statement statement = connection.createStatement()) {
            maxLen = Long.parseLong(scalar(statement, "SELECT @@group_concat_max_len"));
            for (Query query : MemoryQueries.QUERIES) {
                results.add(measure(query, statement, proxy, sampler, limit, options, maxLen));
                if (!proxy.isAlive()) {
                    break;
                }
            }
            out.printf(Locale.ROOT, "(%d heap samples)%n", sampler.samples());
        } catch (SQLException e) {
            err.println("shardgate bench memory: " + Outcome.failed(e));
            return false;
        }
        printTable(results);
        boolean ok = results.stream().allMatch(r -> r.wrong() == null) && results.size() == MemoryQueries.QUERIES.size();
        ok &= plainQueriesAnswer(proxy, user, password, options.rows());
        if (proxy.output().contains("OutOfMemoryError")) {
            err.println("the proxy ran out of memory: see " + proxy.log());
            ok = false;
        }
        if (!proxy.isAlive()) {
            err.println("the proxy died: see " + proxy.log());
            ok = false;
        }
        return ok;
    }

    private Result measure(Query query, Statement statement, ProxyProcess proxy, HeapProbe.Sampler sampler, long limit, Options options,
                           long groupConcatMaxLen) throws IOException, InterruptedException {
        HeapProbe probe = new HeapProbe(proxy.pid());
        String expected = query.expected(options.rows(), groupConcatMaxLen);
        Heap before = probe.afterFullGc();
        sampler.takePeak();
        Set<String> outcomes = new LinkedHashSet<>();
        String wrong = null;
        List<Double> millis = new ArrayList<>();
        for (int r = 0; r < options.repeat(); r++) {
            long started = System.nanoTime();
            Outcome outcome = MemoryQueries.run(statement, query);
            millis.add((System.nanoTime() - started) / 1e6);
            outcomes.add(outcome.toString());
            String verdict = MemoryQueries.verdict(query, outcome, limit, options.rows(), expected);
            if (verdict != null && wrong == null) {
                wrong = verdict;
            }
            if (outcome.error() && outcome.errno() == 0) {
                break; // the connection is gone
            }
        }
        Heap peak = sampler.takePeak();
        // A proxy that died has no heap left to read: its row shows 0 and the bench fails.
        Heap after = proxy.isAlive() ? probe.afterFullGc() : new Heap(0, 0);
        return new Result(query, outcomes, wrong, LoadBench.median(millis), before, peak, after);
    }

    private void printTable(List<Result> results) {
        out.println();
        out.println("| query | the client got (every run) | right? | ms per run (median) | heap MB after full GC, before"
                + " | peak heap MB (every 50 ms) | peak old gen MB | heap MB after full GC, after |");
        out.println("|---|---|---|---|---|---|---|---|");
        for (Result r : results) {
            out.printf(Locale.ROOT, "| `%s` | %s | %s | %.0f | %s | %s | %s | %s |%n", r.query().sql(), String.join(" / ", r.outcomes()),
                    r.wrong() == null ? "yes" : "NO: " + r.wrong(), r.medianMillis(), r.before().usedMb(),
                    r.peak().usedKb() == 0 ? "-" : r.peak().usedMb(), r.peak().usedKb() == 0 ? "-" : r.peak().oldMb(), r.after().usedMb());
        }
        out.flush();
    }

    /** After the runs, a new connection: a count over both shards and a point select must still answer right. */
    private boolean plainQueriesAnswer(ProxyProcess proxy, String user, String password, long rows) {
        try (Connection connection = connect(proxy, user, password); Statement statement = connection.createStatement()) {
            String count = scalar(statement, "SELECT COUNT(*) FROM t");
            String point = scalar(statement, "SELECT v FROM t WHERE id = 1");
            boolean right = count.equals(Long.toString(rows)) && point.equals("3");
            out.printf(Locale.ROOT, "afterwards, on a new connection: SELECT COUNT(*) FROM t -> %s, SELECT v FROM t WHERE id = 1 -> %s (%s)%n",
                    count, point, right ? "right" : "WRONG");
            return right;
        } catch (SQLException e) {
            out.println("afterwards, on a new connection: " + Outcome.failed(e) + " (WRONG)");
            return false;
        }
    }

    /** Loads both tables through the proxy, multi-row INSERTs, and checks that each shard holds some of each. */
    private void load(Topology topology, ProxyProcess proxy, long rows) throws IOException {
        long started = System.nanoTime();
        try (Connection connection = connect(proxy, topology.accounts().user(), topology.accounts().password());
             Statement statement = connection.createStatement()) {
            for (String insert : MemoryQueries.inserts(rows, ROWS_PER_INSERT)) {
                statement.executeUpdate(insert);
            }
        } catch (SQLException e) {
            throw new IOException("loading through the proxy failed: " + Outcome.failed(e), e);
        }
        for (Shard shard : topology.shards()) {
            for (String table : List.of("t", "t2")) {
                String count = shard.primary().queryString("SELECT COUNT(*) FROM " + MemoryQueries.SCHEMA + "." + table);
                if (count.equals("0") && rows > 1) {
                    throw new IllegalStateException(shard.name() + " received no row of " + table);
                }
            }
        }
        out.printf(Locale.ROOT, "loaded 2 x %d rows through the proxy in %.1f s%n", rows, (System.nanoTime() - started) / 1e9);
    }

    private static String scalar(Statement statement, String sql) throws SQLException {
        try (var rows = statement.executeQuery(sql)) {
            return rows.next() ? String.valueOf(rows.getString(1)) : "no row";
        }
    }

    private static Connection connect(ProxyProcess proxy, String user, String password) throws SQLException {
        // A hang shows as a socket timeout (an ERR with errno 0) after 5 minutes instead of blocking the bench.
        return DriverManager.getConnection("jdbc:mariadb://127.0.0.1:" + proxy.port() + "/" + MemoryQueries.SCHEMA
                + "?socketTimeout=300000", user, password);
    }

    /** The proxy's config: two shards (-80 InnoDB, 80- MyRocks), t by id and t2 by w (hash), and the row limit. */
    static String yaml(Topology topology, long limit) {
        Shard s0 = topology.shard("s0");
        Shard s1 = topology.shard("s1");
        return BenchCommand.proxyYaml(topology, "max_buffered_rows: " + limit) + """
                shards:
                  - { name: s0, engine: %s, primary: "%s", key_range: "-80" }
                  - { name: s1, engine: %s, primary: "%s", key_range: "80-" }
                schemas:
                  - name: %s
                    tables:
                      t: { shard_key: id, vindex: hash }
                      t2: { shard_key: w, vindex: hash }
                """.formatted(s0.engine().configName(), s0.primary().address(), s1.engine().configName(), s1.primary().address(),
                MemoryQueries.SCHEMA);
    }

    /** {@code proxy-core/target/shardgate.jar} of the checkout whose {@code tools/target} holds the running tools jar. */
    static Path besideToolsJar() {
        try {
            Path tools = Path.of(ToolsMain.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            return tools.getParent().getParent().getParent().resolve("proxy-core/target/shardgate.jar");
        } catch (URISyntaxException | RuntimeException e) {
            throw new IllegalStateException("cannot tell where the tools jar is; name the proxy's jar with --proxy-jar", e);
        }
    }
}
