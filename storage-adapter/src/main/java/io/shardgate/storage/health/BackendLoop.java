package io.shardgate.storage.health;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

import static java.util.Objects.requireNonNull;

/**
 * One backend's monitoring: one thread and one {@link ControlConnection} that run every
 * {@link BackendCheck} of that backend (its engine health, its replication lag), each at its own
 * interval. A server that hangs delays only its own checks.
 *
 * <p>Each check runs on a fixed schedule (interval after its previous start, not after its end); a
 * check whose run overran its slot is due again at once. When several checks are due in one tick
 * they run in order of interval, shortest first: the frequent, cheap lag poll is not queued behind
 * a slower health probe that falls due at the same time. Pacing uses the JVM's monotonic clock
 * ({@code ticker}); the checks timestamp their own results.
 *
 * <p>Checks are added before {@link #start}; {@link #close} stops the thread after the check it is
 * running and closes the connection.
 */
public final class BackendLoop implements AutoCloseable {
    private final String name;
    private final ControlConnection connection;
    private final LongSupplier ticker;
    private final List<BackendCheck> checks = new ArrayList<>();
    private final CountDownLatch stopping = new CountDownLatch(1);
    private Thread thread;
    private boolean started;

    // Used by the loop's thread only (or by a test driving runDue), after start.
    private long[] due;

    /** A loop named {@code name} (its thread's name) over {@code connection}, paced by {@link System#nanoTime}. */
    public BackendLoop(String name, ControlConnection connection) {
        this(name, connection, System::nanoTime);
    }

    BackendLoop(String name, ControlConnection connection, LongSupplier ticker) {
        this.name = requireNonNull(name, "name is null");
        this.connection = requireNonNull(connection, "connection is null");
        this.ticker = requireNonNull(ticker, "ticker is null");
    }

    public String name() {
        return name;
    }

    /** Adds a check; before {@link #start} only. */
    public synchronized void add(BackendCheck check) {
        requireNonNull(check, "check is null");
        if (started) {
            throw new IllegalStateException(name + " already started");
        }
        checks.add(check);
        checks.sort(Comparator.comparing(BackendCheck::interval));
    }

    /** The checks, in the order a tick runs them. */
    public synchronized List<BackendCheck> checks() {
        return List.copyOf(checks);
    }

    /** Starts the loop's thread; once only. A loop without checks starts no thread. */
    public synchronized void start() {
        if (started) {
            throw new IllegalStateException(name + " already started");
        }
        started = true;
        schedule(ticker.getAsLong());
        if (checks.isEmpty() || stopping.getCount() == 0) {
            connection.close();
            return;
        }
        thread = new Thread(this::run, name);
        thread.setDaemon(true);
        thread.start();
    }

    /** Makes every check due at {@code now}: the first tick runs them all. */
    synchronized void schedule(long now) {
        due = new long[checks.size()];
        Arrays.fill(due, now);
    }

    /**
     * Runs the checks due at {@code now}, shortest interval first, and returns the ticker time at
     * which the next check is due.
     */
    long runDue(long now) {
        boolean[] ran = new boolean[due.length];
        for (int i = 0; i < due.length && stopping.getCount() > 0; i++) {
            if (due[i] - now <= 0) {
                checks.get(i).run(connection);
                ran[i] = true;
            }
        }
        long after = ticker.getAsLong();
        long next = Long.MAX_VALUE;
        for (int i = 0; i < due.length; i++) {
            if (ran[i]) {
                due[i] += checks.get(i).interval().toNanos();
                if (due[i] - after <= 0) {
                    due[i] = after;
                }
            }
            next = i == 0 || due[i] - next < 0 ? due[i] : next;
        }
        return next;
    }

    private void run() {
        try {
            while (stopping.getCount() > 0) {
                long next = runDue(ticker.getAsLong());
                long wait = next - ticker.getAsLong();
                if (wait > 0 && stopping.await(wait, TimeUnit.NANOSECONDS)) {
                    return;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            connection.close();
        }
    }

    /**
     * Stops the loop and waits for the check in flight, which its timeouts bound: up to the sum of
     * every check's {@link BackendCheck#longestRun()}.
     */
    @Override
    public void close() {
        Thread running;
        Duration patience = Duration.ZERO;
        synchronized (this) {
            stopping.countDown();
            running = thread;
            for (BackendCheck check : checks) {
                patience = patience.plus(check.longestRun());
            }
        }
        if (running != null && running.isAlive() && running != Thread.currentThread()) {
            try {
                running.join(Math.max(1, patience.toMillis()));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** True once the loop's thread has ended, or when it never started one. */
    public synchronized boolean isStopped() {
        return thread == null || !thread.isAlive();
    }

    @Override
    public String toString() {
        return "BackendLoop[" + name + ", " + checks.size() + " checks]";
    }
}
