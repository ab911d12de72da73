package io.shardgate.tools.bench;

import java.io.IOException;
import java.util.List;
import java.util.Locale;

/**
 * One sysbench run against one target, with the CPU time per statement of the process that relays it (NaN when
 * there is none, i.e. direct): the proxy's cost that a loaded shared machine hides least.
 */
record Measured(SysbenchResult result, double cpuMicrosPerStatement) {
    static Measured run(BenchCommand.Sysbench target, CpuClock relay, String test, int threads, List<String> extra)
            throws IOException, InterruptedException {
        long before = relay == null ? 0 : relay.cpuNanos();
        SysbenchResult result = SysbenchResult.parse(target.run(test, threads, extra, "run"));
        if (relay == null) {
            return new Measured(result, Double.NaN);
        }
        long used = relay.cpuNanos() - before;
        return new Measured(result, result.queries() == 0 ? Double.NaN : used / 1000.0 / result.queries());
    }

    double tps() {
        return result.tps();
    }

    double avgMillis() {
        return result.avgMillis();
    }

    /** A CPU-per-statement cell: microseconds with one decimal, or a dash when not measured. */
    static String cpu(double micros) {
        return Double.isNaN(micros) ? "-" : String.format(Locale.ROOT, "%.1f", micros);
    }
}
