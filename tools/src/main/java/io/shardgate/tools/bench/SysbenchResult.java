package io.shardgate.tools.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What one sysbench run printed: transactions per second, queries, errors, the average latency sysbench
 * reports under {@code Latency (ms)} (as sum / events when both are printed: finer than its 2-decimal avg), and
 * latency percentiles computed from its {@code --histogram=on} output
 * (sysbench itself prints only one percentile).
 */
public record SysbenchResult(double tps, long queries, long errors, double avgMillis, double p50Millis, double p95Millis) {
    private static final Pattern TPS = Pattern.compile("transactions:\\s+\\d+\\s+\\(([0-9.]+) per sec\\.\\)");
    private static final Pattern QUERIES = Pattern.compile("queries:\\s+(\\d+)\\s+\\(");
    private static final Pattern ERRORS = Pattern.compile("ignored errors:\\s+(\\d+)");
    private static final Pattern AVG = Pattern.compile("(?m)^\\s*avg:\\s+([0-9.]+)\\s*$");
    private static final Pattern SUM = Pattern.compile("(?m)^\\s*sum:\\s+([0-9.]+)\\s*$");
    private static final Pattern EVENTS = Pattern.compile("total number of events:\\s+(\\d+)");
    private static final Pattern BUCKET = Pattern.compile("(?m)^\\s*([0-9.]+)\\s*\\|[* ]*\\s(\\d+)\\s*$");

    public static SysbenchResult parse(String output) {
        Matcher tps = TPS.matcher(output);
        Matcher queries = QUERIES.matcher(output);
        Matcher errors = ERRORS.matcher(output);
        if (!tps.find() || !queries.find() || !errors.find()) {
            throw new IllegalArgumentException("not sysbench run output:\n" + output);
        }
        Matcher avg = AVG.matcher(output);
        if (!avg.find()) {
            throw new IllegalArgumentException("sysbench printed no average latency (Latency (ms): avg:):\n" + output);
        }
        // sysbench prints avg with 2 decimals (10 us steps); its sum over the events gives the same mean to far better.
        double avgMillis = Double.parseDouble(avg.group(1));
        Matcher sum = SUM.matcher(output);
        Matcher events = EVENTS.matcher(output);
        if (sum.find() && events.find() && Long.parseLong(events.group(1)) > 0) {
            avgMillis = Double.parseDouble(sum.group(1)) / Long.parseLong(events.group(1));
        }
        List<double[]> buckets = new ArrayList<>();
        Matcher bucket = BUCKET.matcher(output);
        long total = 0;
        while (bucket.find()) {
            long count = Long.parseLong(bucket.group(2));
            buckets.add(new double[] {Double.parseDouble(bucket.group(1)), count});
            total += count;
        }
        if (total == 0) {
            throw new IllegalArgumentException("sysbench printed no latency histogram (run it with --histogram=on)");
        }
        return new SysbenchResult(Double.parseDouble(tps.group(1)), Long.parseLong(queries.group(1)),
                Long.parseLong(errors.group(1)), avgMillis,
                percentile(buckets, total, 0.50), percentile(buckets, total, 0.95));
    }

    /** The smallest bucket value at or below which {@code fraction} of the samples fall. */
    static double percentile(List<double[]> buckets, long total, double fraction) {
        long wanted = (long) Math.ceil(total * fraction);
        long seen = 0;
        for (double[] b : buckets) {
            seen += (long) b[1];
            if (seen >= wanted) {
                return b[0];
            }
        }
        return buckets.get(buckets.size() - 1)[0];
    }
}
