package io.shardgate.storage.health;

import io.shardgate.storage.BackendEndpoint;
import io.shardgate.storage.StorageAdapter;

import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.function.Consumer;

import static java.util.Objects.requireNonNull;

/**
 * Probes one backend every {@link HealthSettings#interval()} and keeps the latest
 * {@link HealthReport}. It is one {@link BackendCheck} of the backend's {@link BackendLoop}: the
 * proxy runs it on the loop it shares with the backend's lag polls ({@link #start(BackendLoop)});
 * {@link #start()} gives it a loop of its own.
 *
 * <p>Each probe reuses the loop's control connection (reconnecting after a failure), reads an
 * {@link EngineSample} with the adapter's sampler and judges it against the previous one with
 * the adapter's rules. A probe that cannot connect or whose query fails or times out reports
 * FAILED ("unreachable: …") and forgets the previous sample, so counters are compared only
 * between two consecutive successful probes. Probes start on a fixed schedule; one that overran
 * its slot is followed at once by the next.
 *
 * <p>Before the first probe has finished, {@link #current()} is FAILED with "not probed yet".
 */
public final class HealthMonitor implements BackendCheck, AutoCloseable {
    private final BackendEndpoint backend;
    private final EngineSampler sampler;
    private final HealthRules rules;
    private final HealthSettings settings;
    private final Consumer<HealthReport> listener;
    private final boolean semiSync;
    private final Clock clock;
    private volatile HealthReport current;
    private volatile boolean closed;
    /** The loop of this monitor's own, when {@link #start()} made one; null on a shared loop. */
    private BackendLoop ownLoop;
    private boolean started;

    // Used by the loop's thread only.
    private EngineSample previous;
    private EngineSample lastSlow;
    private long nextSlowCheck = System.nanoTime();

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
        this.current = HealthReport.failed(backend.toString(), "not probed yet", clock.instant());
    }

    /** Starts probing on a loop (a thread and a control connection) of this monitor's own. */
    public synchronized void start() {
        requireUnstarted();
        ownLoop = new BackendLoop("shardgate-health-" + backend.shard() + "-" + backend.role(), new ControlConnection(backend));
        ownLoop.add(this);
        ownLoop.start();
    }

    /**
     * Probes on {@code loop}, the backend's shared loop, which its owner starts and closes;
     * {@link #close} then only stops this monitor's probes.
     */
    public synchronized void start(BackendLoop loop) {
        requireUnstarted();
        loop.add(this);
    }

    private void requireUnstarted() {
        if (started) {
            throw new IllegalStateException(this + " already started");
        }
        started = true;
    }

    /** The latest report. */
    public HealthReport current() {
        return current;
    }

    public BackendEndpoint backend() {
        return backend;
    }

    /** Stops probing; on a loop of its own, waits for that loop's thread to end (at most one probe's timeouts). */
    @Override
    public void close() {
        closed = true;
        BackendLoop loop;
        synchronized (this) {
            loop = ownLoop;
        }
        if (loop != null) {
            loop.close();
        }
    }

    @Override
    public Duration interval() {
        return settings.interval();
    }

    /** A connect and up to six queries, each bounded by its timeout. */
    @Override
    public Duration longestRun() {
        return settings.connectTimeout().plus(settings.socketTimeout().multipliedBy(6));
    }

    /** One probe: its report becomes {@link #current()} and goes to the listener. */
    @Override
    public void run(ControlConnection connection) {
        if (closed) {
            return;
        }
        HealthReport report = probe(connection);
        current = report;
        listener.accept(report);
    }

    private HealthReport probe(ControlConnection connection) {
        Instant at = clock.instant();
        boolean slow = System.nanoTime() - nextSlowCheck >= 0;
        try {
            EngineSample sample = connection.run(settings.connectTimeout(), settings.socketTimeout(),
                    c -> sampler.sample(c, slow));
            if (sample.slowChecks()) {
                lastSlow = sample;
                nextSlowCheck = System.nanoTime() + settings.slowCheckInterval().toNanos();
            }
            sample = sample.withSlowResultsOf(lastSlow);
            Judgement judgement = rules.judge(previous, sample);
            if (semiSync) {
                judgement = judgement.and(HealthState.DEGRADED,
                        connection.run(settings.connectTimeout(), settings.socketTimeout(), SemiSync::degradation));
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
