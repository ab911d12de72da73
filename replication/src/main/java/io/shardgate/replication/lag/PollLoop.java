package io.shardgate.replication.lag;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static java.util.Objects.requireNonNull;

/**
 * Runs a {@link Probe} every interval on a thread of its own, so that a server that hangs delays
 * only its own polls. Polls start on a fixed schedule (interval after the previous start, not
 * after its end); a poll that overran its slot is followed at once by the next. Pacing uses the
 * JVM's own clock; the proxy clock only timestamps results.
 */
final class PollLoop {
    private final Probe probe;
    private final long intervalNanos;
    private final CountDownLatch stopping = new CountDownLatch(1);
    private final Thread thread;

    PollLoop(String threadName, Duration interval, Probe probe) {
        this.probe = requireNonNull(probe, "probe is null");
        this.intervalNanos = requireNonNull(interval, "interval is null").toNanos();
        this.thread = new Thread(this::run, requireNonNull(threadName, "threadName is null"));
        this.thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    /** Asks the loop to stop after its current poll; see {@link #await}. */
    void stop() {
        stopping.countDown();
    }

    /** Waits up to {@code timeout} for the loop to end; true when it did. */
    boolean await(Duration timeout) throws InterruptedException {
        thread.join(Math.max(1, timeout.toMillis()));
        return !thread.isAlive();
    }

    private void run() {
        try {
            long next = System.nanoTime();
            while (stopping.getCount() > 0) {
                probe.poll();
                next += intervalNanos;
                long wait = next - System.nanoTime();
                if (wait <= 0) {
                    next = System.nanoTime();
                } else if (stopping.await(wait, TimeUnit.NANOSECONDS)) {
                    return;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            probe.close();
        }
    }
}
