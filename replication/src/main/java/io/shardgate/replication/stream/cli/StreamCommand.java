package io.shardgate.replication.stream.cli;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.shardgate.replication.gtid.MariaDbGtid;
import io.shardgate.replication.gtid.MariaDbGtidPosition;
import io.shardgate.replication.stream.ChangeStream;
import io.shardgate.replication.stream.ServerEndpoint;
import io.shardgate.replication.stream.StreamException;
import io.shardgate.replication.stream.TableFilter;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import java.util.StringJoiner;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

import static java.util.Objects.requireNonNull;

/**
 * {@code shardgate stream}: runs a {@link ChangeStream} from the command line.
 *
 * <p>Exit codes: 0 when stopped cleanly (SIGTERM, or {@code --until-gtid} reached), 1 when the
 * stream failed (the error is the last line on stderr), 2 for bad arguments. Progress goes to
 * stderr every few seconds; the last stdout line is a JSON summary:
 * {@code {"transactions":12,"rows":40,"seconds":3.2,"gtid":{"0":"0-1-42"}}}.
 */
public final class StreamCommand {
    /** The one-line usage printed for {@code --help} and after a bad argument. */
    public static final String USAGE = StreamArgs.USAGE;

    public StreamCommand() {
    }

    public int run(List<String> args, PrintStream out, PrintStream err) {
        requireNonNull(args, "args is null");
        requireNonNull(out, "out is null");
        requireNonNull(err, "err is null");
        StreamArgs parsed;
        ChangeStream stream;
        try {
            parsed = StreamArgs.parse(args);
            ServerEndpoint source = ServerEndpoint.parse(parsed.source(), parsed.user(), parsed.password());
            ServerEndpoint target = ServerEndpoint.parse(parsed.target(), parsed.user(), parsed.password());
            ChangeStream.Builder builder = ChangeStream.builder()
                    .source(source)
                    .target(target)
                    .tables(parsed.schemas().isEmpty() ? TableFilter.all() : TableFilter.schemas(parsed.schemas()))
                    .workers(parsed.workers())
                    .registry(new SimpleMeterRegistry())
                    .notices(message -> err.println("stream: " + message));
            if (parsed.from() != null) {
                builder.fromGtid(parsed.from());
            }
            if (parsed.until() != null) {
                builder.untilGtid(parsed.until());
            }
            stream = builder.build();
        } catch (IllegalArgumentException e) {
            err.println("stream: " + e.getMessage());
            err.println(StreamArgs.USAGE);
            return 2;
        }
        // The binlog library logs every connect at INFO on stderr, between our progress lines; the
        // stream reports reconnects itself.
        Logger binlogLog = Logger.getLogger("com.github.shyiko.mysql.binlog");
        Level binlogLevel = binlogLog.getLevel();
        binlogLog.setLevel(Level.WARNING);
        CountDownLatch finished = new CountDownLatch(1);
        Thread onTerm = new Thread(() -> {
            stream.stop();
            try {
                finished.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "shardgate-stream-sigterm");
        Runtime.getRuntime().addShutdownHook(onTerm);
        ScheduledExecutorService progress = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "shardgate-stream-progress");
            thread.setDaemon(true);
            return thread;
        });
        ProgressReporter reporter = new ProgressReporter(stream, err);
        // A report that throws must not end the schedule (a ScheduledExecutorService drops a task that throws).
        progress.scheduleAtFixedRate(reporter::reportSafely, parsed.progressSeconds(), parsed.progressSeconds(), TimeUnit.SECONDS);
        try {
            ChangeStream.Result result = stream.run();
            out.println(summary(result));
            return 0;
        } catch (StreamException e) {
            err.println("stream: " + e.getMessage());
            return 1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            err.println("stream: interrupted");
            return 1;
        } finally {
            binlogLog.setLevel(binlogLevel);
            progress.shutdownNow();
            finished.countDown();
            try {
                Runtime.getRuntime().removeShutdownHook(onTerm);
            } catch (IllegalStateException e) {
                // Shutting down because of SIGTERM: the hook is running and waits for us.
            }
        }
    }

    static String summary(ChangeStream.Result result) {
        StringJoiner gtids = new StringJoiner(",", "{", "}");
        for (MariaDbGtid gtid : result.applied().byDomain().values()) {
            gtids.add("\"" + gtid.domain() + "\":\"" + gtid + "\"");
        }
        return String.format(Locale.ROOT, "{\"transactions\":%d,\"rows\":%d,\"seconds\":%.3f,\"gtid\":%s}",
                result.transactions(), result.rows(), result.elapsed().toMillis() / 1000.0, gtids);
    }

    /** Prints rates since the last report. */
    static final class ProgressReporter {
        private final ChangeStream stream;
        private final PrintStream err;
        private long lastTransactions;
        private long lastRows;
        private long lastNanos = System.nanoTime();

        ProgressReporter(ChangeStream stream, PrintStream err) {
            this.stream = stream;
            this.err = err;
        }

        void reportSafely() {
            try {
                report();
            } catch (RuntimeException e) {
                err.println("stream: progress report failed: " + e);
            }
        }

        synchronized void report() {
            ChangeStream.Progress now = stream.progress();
            long nanos = System.nanoTime();
            double seconds = Math.max(1e-9, (nanos - lastNanos) / 1e9);
            MariaDbGtidPosition applied = now.applied();
            err.printf(Locale.ROOT, "stream: %.1f tx/s, %.1f rows/s, applied %s, lag %.0f s%n",
                    (now.transactions() - lastTransactions) / seconds, (now.rows() - lastRows) / seconds,
                    applied.isEmpty() ? "nothing" : applied.toString(), now.lagSeconds());
            lastTransactions = now.transactions();
            lastRows = now.rows();
            lastNanos = nanos;
        }
    }
}
