package io.shardgate.proxy.topology;

import io.shardgate.proxy.config.TopologyConfig;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static java.util.Objects.requireNonNull;

/**
 * Connects a proxy to its topology store. At startup it finds the version to serve: the store's; the
 * config file's when the store has none yet (it is written there, so the first proxy seeds the
 * deployment); or, while the store cannot be reached, the local copy of the last version this proxy
 * applied, else the config file's. Once the proxy serves, it follows the store's watch (each version
 * through the {@link TopologyApplier}, then into the local copy), keeps the proxy's registration
 * current, and notices the store going away and coming back: away, the proxy serves on from its last
 * version ({@code DEGRADED}); back, it registers again and catches up. None of this runs on a
 * client's query path.
 */
public final class TopologyService implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(TopologyService.class.getName());
    private static final Duration CHECK_INTERVAL = Duration.ofMillis(200);

    /** The cutovers whose holds this proxy drained, also before it first registers. */
    private volatile java.util.List<String> drained = java.util.List.of();
    private final TopologyStore store;
    private final Optional<LocalCopy> localCopy;
    private final StoredTopology initial;
    private final ScheduledExecutorService background = Executors.newSingleThreadScheduledExecutor(task -> {
        Thread thread = new Thread(task, "shardgate-topology");
        thread.setDaemon(true);
        return thread;
    });
    private final AtomicReference<ProxyRegistration> registration = new AtomicReference<>();

    private TopologyService(TopologyStore store, Optional<LocalCopy> localCopy, StoredTopology initial) {
        this.store = store;
        this.localCopy = localCopy;
        this.initial = initial;
    }

    /** Finds the version to start from in {@code store} (seeding it from {@code config} when it is empty). */
    public static TopologyService open(TopologyStore store, TopologyConfig config, Optional<LocalCopy> localCopy) {
        requireNonNull(store, "store is null");
        StoredTopology fromConfig = new StoredTopology(0, config.document().json());
        StoredTopology initial;
        try {
            StoredTopology stored = store.read();
            if (stored.version() == 0) {
                TopologyWrite write = store.compareAndSet(0, config.document().json());
                stored = write instanceof TopologyWrite.Written written ? new StoredTopology(written.version(), config.document().json())
                        : ((TopologyWrite.Conflict) write).current();
                LOG.log(System.Logger.Level.INFO, store.describe() + " had no topology: seeded it from the config file");
            }
            initial = stored;
        } catch (TopologyStoreUnavailableException e) {
            initial = localCopy.flatMap(LocalCopy::read).orElse(fromConfig);
            LOG.log(System.Logger.Level.WARNING, store.describe() + " cannot be reached (" + e.getMessage() + "); starting from "
                    + (initial == fromConfig ? "the config file's topology" : "the local copy of version " + initial.version()
                    + " (" + localCopy.get().path() + ")"));
        }
        return new TopologyService(store, localCopy, initial);
    }

    /** The version the proxy starts with (0: the config file's, while the store is away and nothing was applied before). */
    public StoredTopology initial() {
        return initial;
    }

    public TopologyStore store() {
        return store;
    }

    /** Starts following the store: {@code applier} gets each new version; {@code me} is this proxy's registration. */
    public void start(LiveTopology live, TopologyApplier applier, ProxyRegistration me) {
        registration.set(me.withVersion(live.version()).withHoldsDrained(drained));
        if (initial.version() > 0) {
            localCopy.ifPresent(copy -> copy.write(initial));
        }
        store.watch(live.version(), version -> {
            if (applier.apply(version)) {
                localCopy.ifPresent(copy -> copy.write(version));
            }
        });
        background.execute(this::register);
        boolean[] wasAvailable = {store.available()};
        live.storeAvailable(wasAvailable[0]);
        background.scheduleWithFixedDelay(() -> {
            boolean available = store.available();
            live.storeAvailable(available);
            if (available && !wasAvailable[0]) {
                LOG.log(System.Logger.Level.INFO, store.describe() + " is back: catching up");
                catchUp(applier);
                register();
            } else if (!available && wasAvailable[0]) {
                LOG.log(System.Logger.Level.WARNING, store.describe() + " cannot be reached: serving topology version "
                        + live.version() + " until it is back (DEGRADED)");
            }
            wasAvailable[0] = available;
        }, CHECK_INTERVAL.toMillis(), CHECK_INTERVAL.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** The proxy serves {@code version}: its registration says so (in the background). */
    public void served(long version) {
        ProxyRegistration current = registration.updateAndGet(me -> me == null ? null : me.withVersion(version));
        if (current != null) {
            background.execute(this::register);
        }
    }

    /** The cutovers whose write holds this proxy has drained: its registration says so (in the background). */
    public void holdsDrained(java.util.List<String> jobs) {
        drained = java.util.List.copyOf(jobs);
        ProxyRegistration current = registration.updateAndGet(me -> me == null ? null : me.withHoldsDrained(jobs));
        if (current != null) {
            background.execute(this::register);
        }
    }

    private void catchUp(TopologyApplier applier) {
        try {
            StoredTopology newest = store.read();
            if (applier.apply(newest)) {
                localCopy.ifPresent(copy -> copy.write(newest));
            }
        } catch (TopologyStoreUnavailableException e) {
            LOG.log(System.Logger.Level.DEBUG, "catching up: " + e.getMessage());
        }
    }

    private void register() {
        ProxyRegistration me = registration.get();
        if (me == null) {
            return;
        }
        try {
            store.register(me);
        } catch (TopologyStoreUnavailableException e) {
            LOG.log(System.Logger.Level.DEBUG, "registering: " + e.getMessage());
        }
    }

    @Override
    public void close() {
        background.shutdownNow();
        store.close();
    }
}
