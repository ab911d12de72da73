package io.shardgate.proxy.routing;

import io.shardgate.proxy.backend.BackendPool;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

import static java.util.Objects.requireNonNull;

/**
 * Takes backends out without killing what runs on them. A drained pool gets no new work from the
 * router (its replica is not serving), closes its idle connections at once and each lent one when it
 * comes back; statements in flight and sessions pinned to it (transactions, temporary tables) finish.
 * When the drain timeout passes first, the connections still lent are closed. Each pool drains at
 * most once at a time; {@link #cancel} puts one back in service.
 */
public final class Drains implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(Drains.class.getName());
    private static final long CHECK_MILLIS = 50;

    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(task -> {
        Thread thread = new Thread(task, "shardgate-drain");
        thread.setDaemon(true);
        return thread;
    });
    private final Map<BackendPool, ScheduledFuture<?>> running = new ConcurrentHashMap<>();
    /** Closes what a topology change replaced (a lag monitor waits for its polls in flight) off the applier's thread. */
    private final java.util.concurrent.ExecutorService closer = Executors.newSingleThreadExecutor(task -> {
        Thread thread = new Thread(task, "shardgate-retire");
        thread.setDaemon(true);
        return thread;
    });

    /** Closes {@code replaced} in the background: a topology change must not wait for it. */
    public void closeLater(AutoCloseable replaced) {
        closer.execute(() -> {
            try {
                replaced.close();
            } catch (Exception e) {
                LOG.log(System.Logger.Level.WARNING, "closing " + replaced + " after a topology change: " + e);
            }
        });
    }

    /**
     * Drains {@code pool} for up to {@code timeout}; {@code done} runs once it is empty or closed (on the
     * drain thread).
     */
    public void start(BackendPool pool, Duration timeout, Runnable done) {
        requireNonNull(pool, "pool is null");
        requireNonNull(done, "done is null");
        long deadline = System.nanoTime() + timeout.toNanos();
        pool.retire();
        running.computeIfAbsent(pool, key -> timer.scheduleWithFixedDelay(() -> check(pool, deadline, done), 0, CHECK_MILLIS,
                TimeUnit.MILLISECONDS));
    }

    /** The pool serves again: its drain stops, connections given back are kept. */
    public void cancel(BackendPool pool) {
        ScheduledFuture<?> drain = running.remove(pool);
        if (drain != null) {
            drain.cancel(false);
        }
        pool.restore();
    }

    private void check(BackendPool pool, long deadline, Runnable done) {
        if (!running.containsKey(pool)) {
            return;
        }
        boolean empty = pool.inUse() == 0;
        if (!empty && System.nanoTime() - deadline < 0) {
            return;
        }
        if (!empty) {
            LOG.log(System.Logger.Level.WARNING, "drain of " + pool.target().address() + " timed out with " + pool.inUse()
                    + " connection(s) still in use; closing them");
        }
        pool.closeAll("its drain ended after topology.drain_timeout_ms");
        ScheduledFuture<?> drain = running.remove(pool);
        if (drain != null) {
            drain.cancel(false);
        }
        try {
            done.run();
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "after draining " + pool.target().address() + ": " + e);
        }
    }

    @Override
    public void close() {
        closer.shutdownNow();
        timer.shutdownNow();
    }
}
