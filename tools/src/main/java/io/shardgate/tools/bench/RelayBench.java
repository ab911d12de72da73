package io.shardgate.tools.bench;

import io.shardgate.proxy.ShardgateProxy;
import io.shardgate.proxy.config.ConfigException;
import io.shardgate.proxy.config.ConfigLoader;
import io.shardgate.proxy.config.ShardgateConfig;
import io.shardgate.replication.topology.Node;
import io.shardgate.replication.topology.Topology;
import io.shardgate.replication.topology.TopologySpec;
import io.shardgate.storage.Engine;

import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code shardgate bench [sysbench] [--time S] [--no-digests-compare]}: sysbench {@code oltp_point_select} and
 * {@code oltp_read_only --skip_trx=on} (1 table, 100k rows) at 1 and 16 threads against one MariaDB primary
 * directly, through HAProxy as a plain TCP relay, and through Shardgate, run back to back for each test and thread
 * count so that the ratios of one row share the machine's load. For point_select a second Shardgate with digest
 * statistics off runs too, so the cost of the digests is read in the same run.
 */
final class RelayBench {
    static final List<String> TESTS = List.of("oltp_point_select", "oltp_read_only");
    static final List<Integer> THREADS = List.of(1, 16);
    /** The config that turns digest statistics off (issue #18); an older ConfigLoader rejects it as unknown. */
    static final String DIGESTS_OFF = "digests: { enabled: false }\n";

    private final PrintStream out;
    private final PrintStream err;

    RelayBench(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    /** The command line: {@code [sysbench] [--time S] [--digests-compare | --no-digests-compare]}. */
    record Options(int seconds, boolean digestsCompare) {
        static Options parse(List<String> args) {
            int seconds = 20;
            boolean digests = true;
            for (int i = 0; i < args.size(); i++) {
                switch (args.get(i)) {
                    case "sysbench" -> {
                    }
                    case "--time" -> seconds = BenchCommand.positive("--time", args, ++i);
                    case "--digests-compare" -> digests = true;
                    case "--no-digests-compare" -> digests = false;
                    default -> throw new IllegalArgumentException("unknown argument '" + args.get(i) + "'");
                }
            }
            return new Options(seconds, digests);
        }
    }

    int run(List<String> args) throws IOException, InterruptedException {
        Options options;
        try {
            options = Options.parse(args);
        } catch (IllegalArgumentException e) {
            err.println("shardgate bench: " + e.getMessage() + " (expected: [sysbench] [--time S] [--no-digests-compare])");
            return 2;
        }
        try (Topology topology = Topology.start(TopologySpec.builder().shard("s0", Engine.INNODB, 0).build())) {
            Node primary = topology.shard("s0").primary();
            primary.execute("CREATE DATABASE sbtest");
            String user = topology.accounts().user();
            String password = topology.accounts().password();
            String yaml = BenchCommand.proxyYaml(topology) + "shards: [ { name: s0, primary: \"" + primary.address() + "\" } ]\n";
            ShardgateConfig digestsOff = options.digestsCompare() ? digestsOff(yaml) : null;
            BenchCommand.Sysbench direct = new BenchCommand.Sysbench(primary.port(), user, password);
            direct.run("oltp_read_only", 4, List.of("--table-size=100000"), "prepare");
            try (HaproxyRelay haproxy = HaproxyRelay.start(primary.address());
                 ShardgateProxy proxy = ShardgateProxy.start(new ConfigLoader().parse(yaml));
                 ShardgateProxy proxyOff = digestsOff == null ? null : ShardgateProxy.start(digestsOff)) {
                BenchCommand.Sysbench relay = new BenchCommand.Sysbench(haproxy.port(), user, password);
                BenchCommand.Sysbench through = new BenchCommand.Sysbench(proxy.port(), user, password);
                BenchCommand.Sysbench throughOff = proxyOff == null ? null : new BenchCommand.Sysbench(proxyOff.port(), user, password);
                CpuClock self = CpuClock.self();
                int warmUp = Math.min(5, options.seconds());
                for (BenchCommand.Sysbench proxied : throughOff == null ? List.of(through) : List.of(through, throughOff)) {
                    proxied.run("oltp_point_select", 16, BenchCommand.timed(warmUp), "run");
                }
                out.printf(Locale.ROOT, "sysbench, 1 table x 100k rows, %d s per run (after a %d s warm-up of each proxy),"
                                + " MariaDB %s, HAProxy %s nbthread 2, Shardgate on %s%n", options.seconds(), warmUp,
                        primary.queryString("SELECT VERSION()"), haproxyVersion(), proxy.transportName());
                out.println("CPU us/stmt: CPU time of the HAProxy process, or of this JVM (the proxies), per statement"
                        + " sysbench counted; added avg: average latency minus direct's, in us");
                out.println();
                out.println("| test | threads | direct tps | HAProxy tps | Shardgate tps | HAProxy / direct | Shardgate / direct"
                        + " | Shardgate / HAProxy | avg ms direct / HAProxy / Shardgate | p50 ms direct / HAProxy / Shardgate"
                        + " | added avg us HAProxy / Shardgate | CPU us/stmt HAProxy / Shardgate"
                        + " | Shardgate digests off tps | digests on / off | CPU us/stmt digests off |");
                out.println("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
                List<String> failures = new ArrayList<>();
                for (String test : TESTS) {
                    List<String> extra = new ArrayList<>(BenchCommand.timed(options.seconds()));
                    if (test.equals("oltp_read_only")) {
                        extra.add("--skip_trx=on");
                    }
                    for (int threads : THREADS) {
                        Measured d = Measured.run(direct, null, test, threads, extra);
                        Measured h = Measured.run(relay, haproxy.cpu(), test, threads, extra);
                        Measured s = Measured.run(through, self, test, threads, extra);
                        Measured off = throughOff != null && test.equals("oltp_point_select")
                                ? Measured.run(throughOff, self, test, threads, extra) : null;
                        long errors = d.result().errors() + h.result().errors() + s.result().errors()
                                + (off == null ? 0 : off.result().errors());
                        if (errors > 0) {
                            failures.add(test + " at " + threads + " threads: " + errors + " errors");
                        }
                        out.println(row(test, threads, d, h, s, off));
                        out.flush();
                    }
                }
                failures.forEach(f -> err.println("errors: " + f));
                return failures.isEmpty() ? 0 : 1;
            }
        }
    }

    static String row(String test, int threads, Measured d, Measured h, Measured s, Measured off) {
        return String.format(Locale.ROOT, "| %s | %d | %.0f | %.0f | %.0f | %.2fx | %.2fx | %.2fx | %.3f / %.3f / %.3f"
                        + " | %.3f / %.3f / %.3f | %.0f / %.0f | %s / %s | %s | %s | %s |",
                test, threads, d.tps(), h.tps(), s.tps(), h.tps() / d.tps(), s.tps() / d.tps(), s.tps() / h.tps(),
                d.avgMillis(), h.avgMillis(), s.avgMillis(), d.result().p50Millis(), h.result().p50Millis(),
                s.result().p50Millis(), (h.avgMillis() - d.avgMillis()) * 1000, (s.avgMillis() - d.avgMillis()) * 1000,
                Measured.cpu(h.cpuMicrosPerStatement()), Measured.cpu(s.cpuMicrosPerStatement()),
                off == null ? "-" : String.format(Locale.ROOT, "%.0f", off.tps()),
                off == null ? "-" : String.format(Locale.ROOT, "%.2fx", s.tps() / off.tps()),
                off == null ? "-" : Measured.cpu(off.cpuMicrosPerStatement()));
    }

    /** The digests-off proxy's config, or null (with a note) when this build's ConfigLoader does not know the key. */
    private ShardgateConfig digestsOff(String yaml) {
        try {
            return new ConfigLoader().parse(yaml + DIGESTS_OFF);
        } catch (ConfigException e) {
            err.println("shardgate bench: no 'Shardgate digests off' column: this build's config rejects '"
                    + DIGESTS_OFF.trim() + "' (" + e.getMessage() + ")");
            return null;
        }
    }

    private static String haproxyVersion() {
        try {
            Process process = new ProcessBuilder(HaproxyRelay.BINARY.toString(), "-v").redirectErrorStream(true).start();
            String first = new String(process.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8)
                    .lines().findFirst().orElse("");
            process.waitFor();
            String[] words = first.split(" ");
            return words.length > 2 ? words[2] : first;
        } catch (IOException e) {
            return "?";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "?";
        }
    }
}
