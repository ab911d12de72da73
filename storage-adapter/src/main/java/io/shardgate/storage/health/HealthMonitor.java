package io.shardgate.storage.health;

import io.shardgate.storage.BackendEndpoint;
import io.shardgate.storage.StorageAdapter;

import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import static java.util.Objects.requireNonNull;

/**
 * Probes one backend every {@link HealthSettings#interval()} on a thread of its own, so that a
 * hanging server delays only its own probes, and keeps the latest {@link HealthReport}.
 *
 * <p>Each probe reuses one control connection (reconnecting after a failure), reads an
 * {@link EngineSample} with the adapter's sampler and judges it against the previous one with
 * the adapter's rules. A probe that cannot connect or whose query fails or times out reports
 * FAILED ("unreachable: …") and forgets the previous sample, so counters are compared only
 * between two consecutive successful probes. Probes start on a fixed schedule; one that overran
 * its slot is followed at once by the next.
 *
 * <p>Before the first probe has finished, {@link #current()} is FAILED with "not probed yet".
 */
public final class HealthMonitor implements AutoCloseable {
    private final BackendEndpoint backend;
    private final EngineSampler sampler;
    private final HealthRules rules;
    private final HealthSettings settings;
    private final Consumer<HealthReport> listener;
    private final boolean semiSync;
    private final Clock clock;
    private final CountDownLatch stopping = new CountDownLatch(1);
    private final Thread thread;
    private volatile HealthReport current;

    // Used by the probing thread only.
    private final ControlConnection connection;
    private EngineSample previous;
    private EngineSample lastSlow;
    private long nextSlowCheck;

    /**
     * @param listener called on the probing thread with every report; keep it quick
     */
    public HealthMonitor(BackendEndpoint backend, StorageAdapter adapter, HealthSettings settings,
                         Consumer<HealthReport> listener) {
        this(backend, adapter, settings, false, listener);
    }

    /**
     * @param semiSync the backend is the primary of a shard with {@code durability: semi_sync}:
     *                 each probe also reports it DEGRADED with {@link SemiSync#degradation}'s
     *                 reasons (semi-sync off, not AFTER_SYNC, or fallen back to asynchronous)
     * @param listener called on the probing thread with every report; keep it quick
     */
    public HealthMonitor(BackendEndpoint backend, StorageAdapter adapter, HealthSettings settings, boolean semiSync,
                         Consumer<HealthReport> listener) {
        this.semiSync = semiSync;
        this.backend = requireNonNull(backend, "backend is null");
        requireNonNull(adapter, "adapter is null");
        if (!adapter.engine().equals(backend.engine())) {
            throw new IllegalArgumentException("adapter for " + adapter.engine().configName() + " given for "
                    + backend);
        }
        this.settings = requireNonNull(settings, "settings is null");
        this.sampler = adapter.sampler(settings);
        this.rules = adapter.healthRules(settings);
        this.listener = requireNonNull(listener, "listener is null");
        this.clock = Clock.systemUTC();
        this.connection = new ControlConnection(backend, settings.connectTimeout(), settings.socketTimeout());
        this.current = HealthReport.failed(backend.toString(), "not probed yet", clock.instant());
        this.thread = new Thread(this::run, "shardgate-health-" + backend.shard() + "-" + backend.role());
        this.thread.setDaemon(true);
    }

    public void start() {
        thread.start();
    }

    /** The latest report. */
    public HealthReport current() {
        return current;
    }

    public BackendEndpoint backend() {
        return backend;
    }

    /** Stops probing and waits for the probing thread to end (at most one probe's timeouts). */
    @Override
    public void close() {
        stopping.countDown();
        if (thread.isAlive()) {
            try {
                thread.join(settings.connectTimeout().plus(settings.socketTimeout().multipliedBy(6)).toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void run() {
        try {
            long next = System.nanoTime();
            nextSlowCheck = next;
            long interval = settings.interval().toNanos();
            while (stopping.getCount() > 0) {
                HealthReport report = probe();
                current = report;
                listener.accept(report);
                next += interval;
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
            connection.close();
        }
    }

    private HealthReport probe() {
        Instant at = clock.instant();
        boolean slow = System.nanoTime() - nextSlowCheck >= 0;
        try {
            EngineSample sample = connection.run(c -> sampler.sample(c, slow));
            if (sample.slowChecks()) {
                lastSlow = sample;
                nextSlowCheck = System.nanoTime() + settings.slowCheckInterval().toNanos();
            }
            sample = sample.withSlowResultsOf(lastSlow);
            Judgement judgement = rules.judge(previous, sample);
            if (semiSync) {
                judgement = judgement.and(HealthState.DEGRADED, connection.run(SemiSync::degradation));
            }
            previous = sample;
            return HealthReport.of(backend.toString(), judgement, sample, at);
        } catch (SQLException | RuntimeException e) {
            previous = null;
            return HealthReport.failed(backend.toString(), "unreachable: " + describe(e), at);
        }
    }

    private static String describe(Exception e) {
        String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        if (e instanceof SQLException sql && sql.getSQLState() != null) {
            return "(" + sql.getSQLState() + ") " + message;
        }
        return message;
    }

    @Override
    public String toString() {
        return "HealthMonitor[" + backend + ", every " + Duration.ofNanos(settings.interval().toNanos()).toMillis()
                + " ms]";
    }
}
