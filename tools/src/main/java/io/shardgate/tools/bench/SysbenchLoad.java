package io.shardgate.tools.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code sysbench oltp_read_write} through one proxy in the background, for as long as the bench needs it: it runs with
 * {@code --time} far beyond the bench and a report every second, and is stopped with SIGTERM, so its totals come from
 * those per-second lines ({@code tps}, {@code err/s}). sysbench ignores the errors it documents as retryable
 * ({@code --mysql-ignore-errors}, by default 1213 deadlock, 1020 record changed, 1205 lock wait timeout) and counts them in
 * {@code err/s} (with {@code --skip_trx} also 1062, see {@link #start}); any other error ends it, which {@link #stop} reports.
 */
final class SysbenchLoad implements AutoCloseable {
    private static final Pattern INTERVAL = Pattern.compile(
            "(?m)^\\[ *(\\d+)s \\] thds: \\d+ tps: ([0-9.]+) qps: ([0-9.]+) .* err/s: ([0-9.]+) reconn/s: ([0-9.]+)");

    /** What the per-second lines add up to: seconds reported, transactions, queries, ignored errors, reconnects. */
    record Totals(int seconds, double transactions, double queries, double errors, double reconnects) {
        double tps() {
            return seconds == 0 ? 0 : transactions / seconds;
        }
    }

    /** What one load did: its totals, whether it ended on its own (a fatal error), and the error lines it printed. */
    record Outcome(String name, Totals totals, boolean diedEarly, List<String> errorLines) {
        String describe() {
            return String.format(Locale.ROOT, "%s: %.0f tps over %d s, %.0f ignored errors (retryable), %.0f reconnects%s%s", name,
                    totals.tps(), totals.seconds(), totals.errors(), totals.reconnects(),
                    diedEarly ? ", ENDED EARLY" : "", errorLines.isEmpty() ? "" : "; " + String.join(" | ", errorLines));
        }
    }

    private final String name;
    private final Process process;
    private final Path log;

    private SysbenchLoad(String name, Process process, Path log) {
        this.name = name;
        this.process = process;
        this.log = log;
    }

    /** Starts {@code sysbench oltp_read_write run} against {@code port}; its output goes to {@code dir/name.log}. */
    static SysbenchLoad start(String name, int port, String user, String password, int threads, long tableSize, boolean skipTrx,
                              Path dir) throws IOException {
        List<String> command = new ArrayList<>(List.of("sysbench", "oltp_read_write", "--db-driver=mysql",
                "--mysql-host=127.0.0.1", "--mysql-port=" + port, "--mysql-user=" + user, "--mysql-password=" + password,
                "--mysql-db=sbtest", "--tables=1", "--table-size=" + tableSize, "--auto-inc=off", "--threads=" + threads,
                "--time=86400", "--report-interval=1", "--rand-seed=" + (port + 1)));
        if (skipTrx) {
            // In autocommit two threads can delete the same id and both insert it again: the second insert fails with
            // 1062 on any server (a transaction's row lock would have ordered them). Counted like the retryable ones.
            command.add("--skip_trx=on");
            command.add("--mysql-ignore-errors=1213,1020,1205,1062");
        }
        command.add("run");
        Path log = dir.resolve(name + ".log");
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        return new SysbenchLoad(name, process, log);
    }

    static Totals totals(String output) {
        Matcher line = INTERVAL.matcher(output);
        int seconds = 0;
        double transactions = 0;
        double queries = 0;
        double errors = 0;
        double reconnects = 0;
        int last = 0;
        while (line.find()) {
            int at = Integer.parseInt(line.group(1));
            int span = Math.max(1, at - last);
            last = at;
            seconds += span;
            transactions += Double.parseDouble(line.group(2)) * span;
            queries += Double.parseDouble(line.group(3)) * span;
            errors += Double.parseDouble(line.group(4)) * span;
            reconnects += Double.parseDouble(line.group(5)) * span;
        }
        return new Totals(seconds, transactions, queries, errors, reconnects);
    }

    /** The distinct lines of {@code output} that report an error or a warning (at most 5). */
    static List<String> errorLines(String output) {
        Set<String> lines = new LinkedHashSet<>();
        for (String line : output.split("\n")) {
            String lower = line.toLowerCase(Locale.ROOT);
            if ((lower.contains("fatal") || lower.contains("error") || lower.contains("warning")) && !INTERVAL.matcher(line).find()) {
                lines.add(line.strip());
            }
        }
        return lines.stream().limit(5).toList();
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /** Stops sysbench (SIGTERM) and adds up what it reported. */
    Outcome stop() throws IOException, InterruptedException {
        boolean diedEarly = !process.isAlive();
        close();
        String output = Files.readString(log, StandardCharsets.UTF_8);
        return new Outcome(name, totals(output), diedEarly, errorLines(output));
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            process.destroy();
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
    }
}
